import {
  type GraphQLInputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type VariableDefinitionNode,
} from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { type ApiError, apiError } from '../contract/errors.ts';
import { type FieldRule, quantityProblem, ruleOf } from '../store/validate.ts';

/**
 * The shape rule of every input, GraphQL variables and REST bodies alike (a REST body is its operation's
 * `$input`): the type of each value, required and unknown fields, null where the type allows none. What a value
 * may be beyond its type (a length, a range, whether null clears or is refused where the type allows it) is the
 * store's rule (src/store/validate.ts). Both APIs call this before graphql-js coerces the values, so one bad
 * value gets one message on both; graphql-js then finds nothing to refuse.
 *
 * A problem is named by the field's path inside the value (`name`), or from `root` (`$ids[2]`, `body`).
 */
export function inputProblem(value: unknown, type: GraphQLInputType, root: string): ApiError | undefined {
  return problemAt(value, type, [], root);
}

/** The first problem of an operation's variables, each checked against its declared type. */
export function variablesProblem(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  values: Record<string, unknown> | null | undefined,
): ApiError | undefined {
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    const value = values?.[name];
    // graphql-js answers undeclared types and missing variables with its own message, naming the variable.
    if (!type || value === undefined) continue;
    const problem = inputProblem(value, type, `$${name}`);
    if (problem) return problem;
  }
  return undefined;
}

// A field of the root object is named alone (`name`, as the store names it); an item of a root list after the root.
const fieldName = (path: readonly (string | number)[], root: string) =>
  (typeof path[0] === 'string' ? '' : root) +
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');

function problemAt(
  value: unknown,
  type: GraphQLInputType,
  path: (string | number)[],
  root: string,
  rule?: FieldRule,
): ApiError | undefined {
  const at = () => fieldName(path, root);
  if (isNonNullType(type)) {
    if (value === null) return apiError('fieldNull', { field: at() });
    return problemAt(value, type.ofType, path, root, rule);
  }
  if (value === null) return undefined;
  if (isListType(type)) {
    // GraphQL takes a single value where a list is expected, as a list of one.
    if (!Array.isArray(value)) return problemAt(value, type.ofType, path, root);
    for (const [i, item] of value.entries()) {
      const problem = problemAt(item, type.ofType, [...path, i], root);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return apiError('fieldNotObject', { field: at() });
    const fields = type.getFields();
    const known = Object.keys(fields);
    for (const key of Object.keys(value)) {
      if (!(key in fields)) {
        return apiError('fieldUnknown', {
          field: fieldName([...path, key], root),
          input: type.name,
          known,
          suggestions: suggestionList(key, known),
        });
      }
    }
    for (const field of Object.values(fields)) {
      const fieldValue = (value as Record<string, unknown>)[field.name];
      if (fieldValue === undefined) {
        if (isNonNullType(field.type) && field.defaultValue === undefined) {
          return apiError('fieldRequired', { field: fieldName([...path, field.name], root) });
        }
        continue;
      }
      const rule = ruleOf(type.name, field.name);
      const problem = problemAt(fieldValue, field.type, [...path, field.name], root, rule);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isEnumType(type)) {
    const names = type.getValues().map(({ name }) => name);
    if (typeof value === 'string' && names.includes(value)) return undefined;
    const suggestions = typeof value === 'string' ? suggestionList(value, names) : [];
    return apiError('fieldNotOneOf', { field: at(), allowed: names, suggestions });
  }
  if (isScalarType(type)) {
    try {
      type.parseValue(value);
      return undefined;
    } catch {
      // A quantity GraphQL's Int cannot hold (2^31) is told the store's range, as one it can hold would be.
      const quantity = rule?.kind === 'quantity' ? quantityProblem(at(), rule, value) : undefined;
      return quantity ?? scalarProblem(type.name, at());
    }
  }
  return undefined;
}

/** What a value a scalar refused must be, in the words of the field rules. */
function scalarProblem(scalar: string, field: string): ApiError {
  switch (scalar) {
    case 'String':
    case 'ID':
      return apiError('fieldNotString', { field });
    case 'Int':
      return apiError('fieldNotInt32', { field });
    case 'Boolean':
      return apiError('fieldNotBoolean', { field });
    case 'Int64':
      return apiError('int64Invalid', { field });
    case 'DateTime':
      return apiError('fieldNotDateTime', { field });
    default:
      return apiError('fieldNotScalar', { field, scalar });
  }
}
