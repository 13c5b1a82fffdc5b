import { type DocumentNode, Kind } from 'graphql';
import type { ErrorCode, ErrorName } from '../contract/errors.ts';
import type { BodyInput } from './body-schemas.ts';
import type { SchemaObject } from './resources.ts';

// What a REST route is: the table is routes.ts, the errors each can answer route-errors.ts, the start-up check
// check-route.ts.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An error a route can answer, and the catalogue entry its OpenAPI example shows (else the code's first). `when`
 * is said where the catalogue's words for the code (ERROR_CODES) do not say enough for this route.
 */
export interface RouteError {
  code: ErrorCode;
  when?: string;
  example?: ErrorName;
}

export interface QueryParameter {
  name: string;
  description: string;
  schema: SchemaObject;
  /** Refuses a value its schema cannot describe (a cursor the API did not issue), naming the parameter. */
  check?: (name: string, text: string) => void;
}

/** What a successful result becomes: the root field's value as the body, a page of a list, or no body. */
export type Success =
  | { kind: 'resource'; schema: SchemaObject }
  | { kind: 'created'; schema: SchemaObject; location: string }
  | { kind: 'page'; schema: SchemaObject }
  | { kind: 'deleted' };

export interface Route {
  method: Method;
  /** OpenAPI path template; each `{name}` is an int64 id, passed as the variable `$name`. */
  path: string;
  operationId: string;
  tag: 'Pets' | 'Store';
  summary: string;
  description?: string;
  /** Query parameters, passed as the variables of the same names. */
  query?: QueryParameter[];
  /** The JSON body: a value of the input type `schema`, passed as `$input` with `defaults` for fields left out. */
  body?: { schema: BodyInput; defaults?: Record<string, unknown> };
  /** The schema operation the route runs: one root field, parsed once at start-up. */
  document: DocumentNode;
  success: Success;
  /** Errors particular to this operation; those every operation of its kind can give are in `errorsOf`. */
  errors?: RouteError[];
  /** GET /pets/{petId}: deprecated, and retired after its sunset, as contract/pets-by-id.ts says. */
  deprecated?: 'petsById';
  hideTryItPanel?: boolean;
}

export const pathParametersOf = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);

/** The schema field a route runs, e.g. `pets`. */
export function rootFieldOf(route: Route): string {
  const [operation] = route.document.definitions;
  const [selection] = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections : [];
  if (selection?.kind !== Kind.FIELD)
    throw new Error(`${route.operationId}: the document must select one root field`);
  return selection.name.value;
}

export const isWrite = (route: Route) => route.method !== 'GET';
