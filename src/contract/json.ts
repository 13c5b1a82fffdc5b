// JSON.stringify cannot write a BigInt. Int64 values beyond 2^53 reach the serializer as BigInts (see
// graphql/scalars.ts); they are written as exact JSON number digits. The common case pays nothing extra.
const MARK = '\u0000int64:';

export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !error.message.includes('BigInt')) throw error;
    return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${MARK}${v}` : v)).replace(
      /"\\u0000int64:(-?\d+)"/g,
      '$1',
    );
  }
}

/**
 * One text per meaning: object keys sorted at every depth, BigInts as their digits, values with `toJSON` (a
 * Date) as it writes them, and `undefined` left out as JSON.stringify leaves it. Two values that differ only
 * in key order or spacing have the same canonical text.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)).replace(/"\\u0000int64:(-?\d+)"/g, '$1');
}

function sortedKeys(value: unknown): unknown {
  if (typeof value === 'bigint') return `${MARK}${value}`;
  if (typeof value !== 'object' || value === null) return value;
  const plain = 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (plain !== value) return sortedKeys(plain);
  if (Array.isArray(value)) return value.map((item) => sortedKeys(item) ?? null);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const entry = sortedKeys((value as Record<string, unknown>)[key]);
    if (entry !== undefined) sorted[key] = entry;
  }
  return sorted;
}
