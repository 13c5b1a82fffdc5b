import type { IncomingMessage } from 'node:http';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { nameOperation, requestContextOf } from '../../observability/request-context.ts';

/**
 * Names each GraphQL request after its operation, for the request log line and the metrics: the
 * operation's name, `anonymous` for an unnamed one, `batch` for a batch, `unknown` when refused before
 * parsing, `graphiql` for the explorer's page.
 */
export function useOperationNames(): Plugin<{ req?: IncomingMessage }, { req?: IncomingMessage }> {
  return {
    onRequestParse({ serverContext }) {
      nameOperation(serverContext.req, 'graphql', 'unknown');
    },
    onExecute({ args }) {
      const context = requestContextOf(args.contextValue.req);
      if (context?.api !== 'graphql') return;
      const name = getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
      nameOperation(args.contextValue.req, 'graphql', context.operation === 'unknown' ? name : 'batch');
    },
    onResponse({ response, serverContext }) {
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        nameOperation(serverContext.req, 'graphql', 'graphiql');
      }
    },
  };
}
