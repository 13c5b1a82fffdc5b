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
