import { type FieldNode, type GraphQLField, type GraphQLSchema, isUnionType } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import type { Plugin } from 'graphql-yoga';
import { apiError } from '../../contract/errors.ts';
import { toGraphQLError } from '../../contract/graphql-error.ts';
import type { Context } from '../context.ts';
import { fieldMentions } from './field-mentions.ts';
import { rootFieldsOf } from './root-fields.ts';

const ENTITIES_FIELD = '_entities';

/**
 * A router's representations (`_entities`, FEDERATION=on), checked before anything runs: each must be an object
 * whose `__typename` names an entity of this subgraph. @apollo/subgraph's resolver throws a plain error for
 * any other, which loses the whole list and would be masked as INTERNAL; here the operation is refused whole,
 * VALIDATION_FAILED (400) naming the representation. A schema without entities makes this stage do nothing.
 */
export function useEntityRepresentations(): Plugin<Context> {
  let entityNames = new Set<string>();
  const entities = fieldMentions();

  return {
    onSchemaChange({ schema }) {
      entityNames = entityNamesOf(schema);
      entities.reset(entityNames.size > 0 ? new Set([ENTITIES_FIELD]) : new Set());
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (!entities.in(args.document)) return;
      const root = rootFieldsOf(args);
      if (!root) return;
      for (const [i, field] of root.fields.entries()) {
        const node = root.nodes[i];
        if (field.name !== ENTITIES_FIELD || !node) continue;
        const problem = representationProblem(representationsOf(field, node, root.variables), entityNames);
        if (!problem) continue;
        setResultAndStopExecution({
          errors: [toGraphQLError(apiError('representationNotEntity', problem), { httpStatus: true })],
        });
        return;
      }
    },
  };
}

function representationsOf(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Record<string, unknown>,
): unknown[] {
  try {
    const { representations } = getArgumentValues(field, node, variables);
    return Array.isArray(representations) ? representations : [];
  } catch {
    // Arguments that do not coerce: graphql-js refuses the operation itself.
    return [];
  }
}

function representationProblem(
  representations: unknown[],
  entityNames: Set<string>,
): { index: number; entities: string[]; got: string } | undefined {
  for (const [index, representation] of representations.entries()) {
    const typename =
      representation && typeof representation === 'object'
        ? (representation as { __typename?: unknown }).__typename
        : undefined;
    if (typeof typename === 'string' && entityNames.has(typename)) continue;
    const got = representation && typeof representation === 'object' ? JSON.stringify(typename) : 'no object';
    return { index, entities: [...entityNames], got: got ?? 'none' };
  }
  return undefined;
}

/** The types of the `_entities` union, as @apollo/subgraph names it; none without federation. */
function entityNamesOf(schema: GraphQLSchema): Set<string> {
  const union = schema.getType('_Entity');
  return new Set(isUnionType(union) ? union.getTypes().map((type) => type.name) : []);
}
