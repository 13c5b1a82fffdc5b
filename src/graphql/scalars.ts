import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { INT64_RULE, toInt64 } from '../contract/int64.ts';

function parseInt64(value: unknown): bigint {
  const parsed = toInt64(value);
  if (parsed === undefined) {
    throw new GraphQLError(
      `Int64 must be ${INT64_RULE}; got ${JSON.stringify(typeof value === 'string' ? value : String(value))}`,
    );
  }
  return parsed;
}

/**
 * 64-bit identifiers. Output is a JSON number; beyond 2^53 the digits are still exact in the response text
 * (see contract/json.ts), so only a client's own JSON parser could round them. Input follows the rule REST
 * bodies follow too (contract/int64.ts): an Int literal or a JSON number up to 2^53-1, or a string of digits.
 */
export const Int64Scalar = new GraphQLScalarType<bigint, bigint | number>({
  name: 'Int64',
  description: `A 64-bit signed integer, used for identifiers. Serialized as a JSON number (exact digits even beyond 2^53). Accepted as ${INT64_RULE}.`,
  serialize: (value) => {
    const int = parseInt64(value);
    return int >= BigInt(Number.MIN_SAFE_INTEGER) && int <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(int)
      : int;
  },
  parseValue: parseInt64,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return parseInt64(ast.value);
    throw new GraphQLError(`Int64 must be ${INT64_RULE}; got a literal of kind ${ast.kind}`);
  },
});

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 date-time, e.g. 2026-11-21T12:00:00Z. Always returned in UTC.',
  serialize: (value) => {
    if (!(value instanceof Date)) throw new GraphQLError('DateTime must be a Date');
    return value.toISOString();
  },
  parseValue: parseDateTime,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return parseDateTime(ast.value);
  },
});

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' && ISO_8601.test(value) ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError(
      `DateTime must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T12:00:00Z`,
    );
  }
  return date;
}
