import {
  type DocumentNode,
  type GraphQLSchema,
  getVariableValues,
  type OperationDefinitionNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { PageArguments } from './arguments.ts';
import { compileStatement, type Statement, statementShapeOf } from './compile.ts';
import type { Dialect } from './dialects.ts';
import { Unplannable } from './model.ts';
import { directiveVariablesOf, planSelection, type SelectionPlan } from './selection.ts';

/** A planned selection and its statements, one per shape of arguments (compile.ts). */
export class Plan {
  private readonly statements = new LRUCache<string, Statement>({ max: 64 });
  constructor(readonly selection: SelectionPlan) {}

  statementFor(pages: readonly PageArguments[], dialect: Dialect): Statement {
    const shape = statementShapeOf(pages);
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = compileStatement(this.selection, pages, dialect);
      this.statements.set(shape, statement);
    }
    return statement;
  }
}

interface DocumentPlans {
  /** The variables its @skip/@include read; null: a directive the planner does not know. */
  directiveVariables: string[] | null;
  /** By operation name and @skip/@include values; null: not plannable. */
  plans: Map<string, Plan | null>;
}

const MAX_PLANS_PER_DOCUMENT = 32;

/**
 * Plans per parsed document, as the validation cache keeps results (Yoga's parse cache and the REST routes hand
 * the same object for the same text), then per operation and @skip/@include values: what decides the selection.
 * A document the planner cannot cover is remembered as such, so that it costs one lookup.
 */
export class PlanCache {
  private readonly documents = new WeakMap<DocumentNode, DocumentPlans>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** The plan and the coerced variables, or undefined: the resolvers answer. */
  planFor(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    inputs: Record<string, unknown>,
  ): { plan: Plan; variables: Record<string, unknown> } | undefined {
    let known = this.documents.get(document);
    if (!known) {
      known = { directiveVariables: directiveVariablesOf(document), plans: new Map() };
      this.documents.set(document, known);
    }
    if (!known.directiveVariables || operation.operation !== 'query') return undefined;
    const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], inputs);
    if (!coerced.coerced) return undefined;
    const variables = coerced.coerced;
    const key = `${operation.name?.value ?? ''}:${known.directiveVariables.map((name) => (variables[name] ? 1 : 0)).join('')}`;
    let plan = known.plans.get(key);
    if (plan === undefined) {
      try {
        plan = new Plan(planSelection(this.schema, document, operation, variables));
      } catch (error) {
        if (!(error instanceof Unplannable)) throw error;
        plan = null;
      }
      if (known.plans.size < MAX_PLANS_PER_DOCUMENT) known.plans.set(key, plan);
    }
    return plan ? { plan, variables } : undefined;
  }
}
