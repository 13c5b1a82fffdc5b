// Identifiers are int64 everywhere (the contract): no layer may round or cut them. JavaScript numbers are exact
// only up to 2^53, so an id is a bigint until it is written out.
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The int64 that `value` stands for: a bigint, a number that is a safe integer, or a string of at most 19
 * digits (exact beyond 2^53); undefined when it is none, or out of range.
 */
export function toInt64(value: unknown): bigint | undefined {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) parsed = BigInt(value);
  return parsed !== undefined && parsed >= INT64_MIN && parsed <= INT64_MAX ? parsed : undefined;
}
