import type { GraphQLField } from 'graphql';
import type { Caller } from '../../contract/caller.ts';
import type { CacheScope } from '../../contract/http-caching.ts';
import type { Scope } from '../../contract/scopes.ts';

/** A scope a field can demand: `read` is every caller's, so naming it would demand nothing. */
export type DemandedScope = Exclude<Scope, 'read'>;

/**
 * A Prisma `where` of the subset the list planner translates (plan/where.ts): a column equal to a value or null,
 * or `{ in, gt, gte, lt, lte, equals }`; anything else makes the planner leave the operation to the resolvers.
 */
export type Where = Record<string, unknown>;

/**
 * How a connection lists its rows, for its resolver and the list planner alike: the column it pages and orders
 * by (its Pothos `cursor`), and, on a root field, the rows its arguments and its caller may see.
 */
export interface ListPlan<Args = Record<string, unknown>> {
  cursor: string;
  /** May throw the Error object for arguments it refuses (the planner then leaves the request to the resolver). */
  where?: (args: Args, caller: Caller) => Where;
}

/** A field computed from its row: the first of `values` whose `where` the row matches (as a filter would). */
export interface Derived {
  values: readonly string[];
  where: (value: string) => Where;
}

/** Rules that change what a field means on given dates, configured when the schema is built. */
export type DeprecationName = 'petsById';

/**
 * What the gateway's stages know of one output field: declared as the field's typed options (global-types.ts),
 * kept on the built field by the plugin (index.ts), read through `factsOf`. To add a fact: its option in
 * global-types.ts, its entry here, its default in NO_FACTS and its line in `factsFrom`.
 */
export interface FieldFacts {
  /** The scope a root field needs (the `scopes` stage, the OpenAPI `x-required-scope`); `read` when it names none. */
  scope: Scope;
  /** Its value depends on who asks (the caller's key, quota or own orders): no result that selects it is shared. */
  callerDependent: boolean;
  /** Tables (Prisma model names) it reads that its type does not show; the response cache's dependencies. */
  readsTables: readonly string[];
  /** Who may keep an answer that selects it (HTTP Cache-Control): `private` when caller-dependent, unless told. */
  cache: CacheScope;
  /** Its calls are limited per caller (the `field limits` stage; the limit is configured by field name). */
  fieldLimit: boolean;
  /** Deprecated on configured dates, and answering ENDPOINT_SUNSET after the last one (contract/pets-by-id.ts). */
  deprecation: DeprecationName | undefined;
  /** The column of its parent's row it shows (a Pothos `expose`). */
  column: string | undefined;
  /** The Prisma relation of its parent's model it follows (a Pothos `relation` or `relatedConnection`). */
  relation: string | undefined;
  /** A connection's paging column and rows (the list planner and the resolver share them). */
  listPlan: ListPlan | undefined;
  /** A value computed from its row's columns. */
  derived: Derived | undefined;
}

export const NO_FACTS: FieldFacts = {
  scope: 'read',
  callerDependent: false,
  readsTables: [],
  cache: 'public',
  fieldLimit: false,
  deprecation: undefined,
  column: undefined,
  relation: undefined,
  listPlan: undefined,
  derived: undefined,
};

/** The options global-types.ts declares, as the plugin reads them off any kind of field. */
export interface FactOptions {
  scope?: DemandedScope;
  callerDependent?: boolean;
  readsTables?: readonly string[];
  cache?: CacheScope;
  fieldLimit?: boolean;
  deprecation?: DeprecationName;
  listPlan?: ListPlan<never>;
  derived?: Derived;
}

/** What Pothos itself records on a field it exposes or relates. */
export interface PothosFieldExtensions {
  pothosExposedField?: string;
  /** The relation's field in Prisma's datamodel. */
  pothosPrismaRelationField?: { name: string };
}

export function factsFrom(options: FactOptions, extensions: PothosFieldExtensions = {}): FieldFacts {
  return {
    scope: options.scope ?? NO_FACTS.scope,
    callerDependent: options.callerDependent ?? NO_FACTS.callerDependent,
    readsTables: options.readsTables ?? NO_FACTS.readsTables,
    cache: options.cache ?? (options.callerDependent ? 'private' : NO_FACTS.cache),
    fieldLimit: options.fieldLimit ?? NO_FACTS.fieldLimit,
    deprecation: options.deprecation ?? NO_FACTS.deprecation,
    column: extensions.pothosExposedField,
    relation: extensions.pothosPrismaRelationField?.name,
    listPlan: options.listPlan as ListPlan | undefined,
    derived: options.derived,
  };
}

/** The extension the plugin keeps a field's facts under; nothing but `factsOf` reads it. */
export const FACTS_EXTENSION = 'gatewayFieldFacts';

/**
 * Federation's entity lookup (`_entities`, FEDERATION=on), made by @apollo/subgraph rather than the builder:
 * the orders it finds depend on the caller's key (types/order.ts), so none of its answers is shared.
 */
const ENTITY_LOOKUP_FACTS: FieldFacts = { ...NO_FACTS, callerDependent: true, cache: 'private' };

/**
 * The facts of a built field; a field the builder did not make has none (introspection's), or those of the
 * entity lookup.
 */
export function factsOf(field: Pick<GraphQLField<unknown, unknown>, 'name' | 'extensions'>): FieldFacts {
  const facts = field.extensions?.[FACTS_EXTENSION] as FieldFacts | undefined;
  return facts ?? (field.name === '_entities' ? ENTITY_LOOKUP_FACTS : NO_FACTS);
}
