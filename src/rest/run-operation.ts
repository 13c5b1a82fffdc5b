import type { DocumentNode, ExecutionResult } from 'graphql';
import type { YogaServer } from 'graphql-yoga';

type Yoga = Pick<YogaServer<Record<string, unknown>, Record<string, unknown>>, 'getEnveloped'>;

export interface Operation {
  document: DocumentNode;
  /** The document's text, for plugins that read the request's `params` as a GraphQL request's. */
  source: string;
  variables: Record<string, unknown>;
}

export type RunOperation = (
  operation: Operation,
  request: Request,
  serverContext: Record<string, unknown>,
) => Promise<ExecutionResult<Record<string, unknown>>>;

/**
 * The one seam through which REST re-enters Yoga: a route's operation runs as a GraphQL request's does, with
 * Yoga's context factory and its execute, so every plugin on them (the caller, writes needing a key, the
 * response cache, Int64 output) treats REST and GraphQL alike.
 */
export function operationRunner(yoga: Yoga): RunOperation {
  return async ({ document, source, variables }, request, serverContext) => {
    const initialContext = Object.assign(serverContext, { request, params: { query: source, variables } });
    const enveloped = yoga.getEnveloped(initialContext);
    const contextValue = await enveloped.contextFactory(initialContext);
    const result = await enveloped.execute({
      schema: enveloped.schema,
      document,
      contextValue,
      variableValues: variables,
    });
    return result as ExecutionResult<Record<string, unknown>>;
  };
}
