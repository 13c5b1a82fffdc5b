// Identifiers are int64 everywhere (the contract): no layer may round or cut them. JavaScript numbers are exact
// only up to 2^53, so an id is a bigint until it is written out.
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An int64 written as text: decimal digits, an optional minus sign, no leading zeros, no plus sign, no spaces
 * (exactly what JSON allows for an integer, so the same number has one spelling). Range is checked apart.
 */
export const INT64_TEXT = /^(?:0|-?[1-9]\d{0,18})$/;

/**
 * The one rule of both APIs (docs/http.md), for GraphQL variables and literals, REST bodies, paths and query
 * strings: an int64 is a JSON number that is a safe integer (|n| <= 2^53-1, taken by its value, so 1e3 is
 * 1000), or a string of digits (INT64_TEXT) for the whole int64 range.
 */
export const INT64_RULE =
  'a whole number between -2^63 and 2^63-1: a JSON number up to 2^53-1, or a string of digits (no sign but -, no leading zeros) for any int64';

/**
 * The int64 that `value` stands for: a bigint, a number that is a safe integer, or a string that INT64_TEXT
 * accepts (exact beyond 2^53); undefined when it is none, or out of range.
 */
export function toInt64(value: unknown): bigint | undefined {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && INT64_TEXT.test(value)) parsed = BigInt(value);
  return parsed !== undefined && parsed >= INT64_MIN && parsed <= INT64_MAX ? parsed : undefined;
}
