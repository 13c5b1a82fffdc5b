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
  throw new Error(unsupportedScheme(url));
}

const SUPPORTED = 'file:… (SQLite) or postgresql://… (PostgreSQL)';
// Other databases' URL schemes, named so that a user learns the gateway does not serve them.
const OTHER_DATABASES: Record<string, string> = {
  mysql: 'MySQL',
  mysql2: 'MySQL',
  mysqlx: 'MySQL',
  mariadb: 'MariaDB',
  sqlserver: 'SQL Server',
  mssql: 'SQL Server',
  mongodb: 'MongoDB',
  'mongodb+srv': 'MongoDB',
  cockroachdb: 'CockroachDB',
};

/** The refusal of a URL of another scheme: a likely typo of a supported one is named, with the URL it meant. */
function unsupportedScheme(url: string): string {
  const scheme = /^([A-Za-z][\w+.-]*):/.exec(url)?.[1]?.toLowerCase();
  const shown = redact(url);
  if (scheme && OTHER_DATABASES[scheme])
    return `${OTHER_DATABASES[scheme]} is not supported: DATABASE_URL must be ${SUPPORTED}`;
  if (scheme && isLikePostgres(scheme)) {
    const meant = `postgresql:${shown.slice(scheme.length + 1).replace(/^\/*/, '//')}`;
    return `unknown scheme "${scheme}:": did you mean ${meant}? DATABASE_URL must be ${SUPPORTED}`;
  }
  if (scheme && ['sqlite', 'sqlite3', 'files'].includes(scheme)) {
    return `unknown scheme "${scheme}:": did you mean file:./data/petstore.db (a file path after file:)? DATABASE_URL must be ${SUPPORTED}`;
  }
  return `DATABASE_URL must be ${SUPPORTED}`;
}

/** postgress, postgre, postgresq, pgsql, psql, postgis...: a misspelt PostgreSQL scheme. */
function isLikePostgres(scheme: string): boolean {
  if (['pg', 'pgsql', 'psql', 'postgis', 'pq'].includes(scheme)) return true;
  return ['postgres', 'postgresql'].some((name) => editDistance(scheme, name) <= 2);
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
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
