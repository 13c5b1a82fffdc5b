import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { apiError } from '../../contract/errors.ts';
import { toGraphQLError } from '../../contract/graphql-error.ts';
import { grants } from '../../contract/scopes.ts';
import type { Context } from '../context.ts';
import { factsOf } from '../field-facts/facts.ts';
import { fieldMentions } from './field-mentions.ts';
import { rootFieldsOf } from './root-fields.ts';

/**
 * Key scopes, checked before any resolver runs: each root field names the scope it needs (its `scope` option;
 * `read` when it names none, and a mutation field must name one). An operation with a root field outside the
 * key's scopes is refused whole, FORBIDDEN (403) naming the scope needed, so that no client sees half of it written. Runs
 * after "writes need a key": an anonymous caller's write is 401 there; here an anonymous read of an
 * admin field (the key list) is 401 too.
 */
export function useScopes(): Plugin<Context> {
  // Most operations (every read but the key list) name no scoped field: a document is looked through once
  // (Yoga's parse cache and the REST routes hand the same object for the same text) and then passes at once.
  const scoped = fieldMentions();

  return {
    onSchemaChange({ schema }) {
      scoped.reset(scopedRootFieldNames(schema));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const { caller } = args.contextValue;
      if (caller.kind === 'key' && grants(caller.scopes, 'admin')) return;
      if (!scoped.in(args.document)) return;
      for (const field of rootFieldsOf(args)?.fields ?? []) {
        const needed = factsOf(field).scope;
        if (needed === 'read') continue;
        if (caller.kind !== 'key') {
          const error = toGraphQLError(apiError('fieldNeedsKey', { field: field.name, scope: needed }), {
            httpStatus: true,
            extensions: { requiredScope: needed },
          });
          setResultAndStopExecution({ errors: [error] });
          return;
        }
        if (grants(caller.scopes, needed)) continue;
        const scopes = caller.scopes.join(', ');
        const refusal = apiError('scopeMissing', { field: field.name, scope: needed, scopes });
        const error = toGraphQLError(refusal, {
          httpStatus: true,
          extensions: { requiredScope: needed },
        });
        setResultAndStopExecution({ errors: [error] });
        return;
      }
    },
  };
}

function scopedRootFieldNames(schema: GraphQLSchema): Set<string> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return new Set(
    roots.flatMap((root) =>
      Object.values(root?.getFields() ?? {})
        .filter((field) => factsOf(field).scope !== 'read')
        .map((field) => field.name),
    ),
  );
}
