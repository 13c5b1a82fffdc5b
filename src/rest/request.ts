import { type GraphQLInputType, GraphQLNonNull, type GraphQLSchema, isInputObjectType } from 'graphql';
import { readBody } from '../contract/body-limit.ts';
import { apiError } from '../contract/errors.ts';
import { toInt64 } from '../contract/int64.ts';
import { inputProblem } from '../graphql/input-check.ts';
import { RESOURCES, type ResourceName, type SchemaObject } from './resources.ts';
import type { QueryParameter, Route } from './route.ts';

/**
 * The path parameters as variables, each an int64 id; parsed before anything from the raw path can reach a
 * response header.
 */
export function parsePathIds(values: Record<string, string>): Record<string, bigint> {
  return Object.fromEntries(Object.entries(values).map(([name, text]) => [name, parseInt64(name, text)]));
}

/**
 * A route's query parameters, and its JSON body as `$input` (within `maxBodyBytes`), as variables. The body is
 * held to the shape of its input type as GraphQL variables are (graphql/input-check.ts), so that a bad value
 * gets the same answer on both APIs; its values are the store's to judge.
 */
export function createVariableReader(maxBodyBytes: number, schemaOf: () => GraphQLSchema) {
  return async (route: Route, search: URLSearchParams, request: Request) => {
    const variables = parseQuery(route.query, search);
    if (route.body) {
      const body = await readJsonBody(request, maxBodyBytes);
      const problem = inputProblem(body, inputType(schemaOf(), route.body.schema), 'body');
      if (problem) throw problem;
      variables.input = { ...route.body.defaults, ...(body as Record<string, unknown>) };
    }
    return variables;
  };
}

function inputType(schema: GraphQLSchema, name: string): GraphQLInputType {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`The schema has no input type ${name} for a REST body`);
  return new GraphQLNonNull(type);
}

/** Ids in paths and query strings are text, so they are read exactly, beyond 2^53 too. */
function parseInt64(name: string, text: string): bigint {
  const value = toInt64(text);
  if (value === undefined) {
    throw apiError('parameterNotInt64', { parameter: name, got: text });
  }
  return value;
}

const resolve = (schema: SchemaObject): SchemaObject =>
  schema.$ref ? RESOURCES[schema.$ref.split('/').pop() as ResourceName] : schema;

function parseValue(name: string, schema: SchemaObject, text: string): unknown {
  const { type, format, minimum, maximum, maxItems, items, enum: allowed } = resolve(schema);
  if (type === 'integer' && format === 'int64') return parseInt64(name, text);
  if (type === 'integer') {
    const [min, max] = [minimum ?? 0, maximum ?? 999_999_999];
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      throw apiError('parameterOutOfRange', { parameter: name, min, max, got: text });
    }
    return value;
  }
  if (type === 'boolean') {
    if (text !== 'true' && text !== 'false')
      throw apiError('parameterNotBoolean', { parameter: name, got: text });
    return text === 'true';
  }
  if (type === 'array' && items) {
    const values = text.split(',');
    if (maxItems !== undefined && values.length > maxItems) {
      throw apiError('parameterTooManyValues', { parameter: name, maxItems, count: values.length });
    }
    return values.map((value) => parseValue(name, items, value.trim()));
  }
  if (allowed && !allowed.includes(text)) {
    throw apiError('parameterNotOneOf', { parameter: name, allowed: allowed.map(String), got: text });
  }
  return text;
}

/** The query parameters as variables. Unknown or repeated parameters are refused, so that typos do not pass. */
function parseQuery(parameters: QueryParameter[] = [], search: URLSearchParams): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const name of new Set(search.keys())) {
    const parameter = parameters.find((p) => p.name === name);
    if (!parameter) {
      throw apiError('parameterUnknown', { parameter: name, known: parameters.map((p) => p.name) });
    }
    const values = search.getAll(name);
    if (values.length > 1) throw apiError('parameterRepeated', { parameter: name });
    const text = values[0] as string;
    parameter.check?.(name, text);
    variables[name] = parseValue(name, parameter.schema, text);
  }
  return variables;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The request's JSON body, within the size limit (see contract/body-limit.ts). */
async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (!type || !JSON_MEDIA_TYPE.test(type)) {
    throw apiError('restBodyNotJson', { contentType: type });
  }
  const text = new TextDecoder().decode(await readBody(request, maxBytes));
  if (text.trim() === '') throw apiError('bodyMissing');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw apiError('bodyMalformed', { parseError: (error as Error).message });
  }
}
