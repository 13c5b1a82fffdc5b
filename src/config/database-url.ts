// Which database a DATABASE_URL names. `file:` is the embedded SQLite default; postgres:// or
// postgresql:// is PostgreSQL, where `?schema=` selects a schema (default public) and
// `?connection_limit=` the pool size.
export type DatabaseTarget =
  | { provider: 'sqlite'; url: string; file: string }
  | { provider: 'postgresql'; url: string; connectionString: string; schema: string; poolSize: number };

export const DEFAULT_DATABASE_URL = 'file:./data/petstore.db';

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('file:')) {
    const file = url.slice('file:'.length);
    if (!file) throw new Error(`DATABASE_URL "${url}" names no file (expected e.g. ${DEFAULT_DATABASE_URL})`);
    return { provider: 'sqlite', url, file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`DATABASE_URL "${redact(url)}" is not a valid URL`);
    }
    const schema = parsed.searchParams.get('schema') ?? 'public';
    const poolSize = Number(parsed.searchParams.get('connection_limit') ?? 10);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema))
      throw new Error(`DATABASE_URL schema "${schema}" is not a plain identifier`);
    if (!Number.isInteger(poolSize) || poolSize < 1)
      throw new Error('DATABASE_URL connection_limit must be a positive integer');
    parsed.searchParams.delete('schema');
    parsed.searchParams.delete('connection_limit');
    return { provider: 'postgresql', url, connectionString: parsed.toString(), schema, poolSize };
  }
  throw new Error(`DATABASE_URL "${redact(url)}" is neither file:… (SQLite) nor postgresql://… (PostgreSQL)`);
}

/** The URL without its password (in the authority or as a `password` parameter), for messages and logs. */
export function redact(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: hide anything between "//" and the last "@", where a password would be.
    return url.replace(/\/\/.*@/, '//***@');
  }
  if (!parsed.password && !parsed.searchParams.has('password')) return url;
  if (parsed.password) parsed.password = '***';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
  return parsed.toString();
}
