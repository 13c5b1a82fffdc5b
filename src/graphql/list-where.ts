import type { GraphQLResolveInfo } from 'graphql';
import type { Caller } from '../contract/caller.ts';
import { factsOf } from './field-facts/facts.ts';

/**
 * The rows a connection field lists for these arguments and this caller, by the rule it declares (its
 * `listPlan.where` option), which the list planner (plan/) translates into SQL: one rule for both paths.
 */
export function listWhere<W>(info: GraphQLResolveInfo, args: object, caller: Caller): W {
  const field = info.parentType.getFields()[info.fieldName];
  const where = field && factsOf(field).listPlan?.where;
  if (!where) throw new Error(`${info.parentType.name}.${info.fieldName} declares no listPlan.where`);
  return where(args as never, caller) as W;
}
