import { resolve } from 'node:path';
import type { DatabaseTarget } from '../config/database-url.ts';

/**
 * A failure at start that the person starting the gateway can act on: main prints its message alone, on one
 * line without a stack, and exits 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

type Failure = Error & { code?: string; errno?: number };

const LISTEN_REASONS: Record<string, string> = {
  EADDRINUSE:
    'the address is already in use (another process listens there). Stop that process, or set PORT (and HOST) to a free address',
  EACCES: 'permission denied (ports below 1024 need privileges). Set PORT to 1024 or above',
  EADDRNOTAVAIL:
    'HOST is not an address of this machine. Set HOST to one of its addresses (or 0.0.0.0), and PORT',
};

/** The listener's failure to bind, naming the address and the variables that set it; others unchanged. */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const reason = LISTEN_REASONS[(error as Failure)?.code ?? ''];
  if (!reason) return error;
  return new StartupError(`Cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${reason}.`, {
    cause: error,
  });
}

// Network failures of a connection (Node's codes) and PostgreSQL's SQLSTATEs for a database that cannot be
// used at all: connection exceptions (08...), authentication (28...), no such database (3D000).
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing answers there (connection refused); PostgreSQL must run on that host and port',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the server closed the connection',
};

const FILE_REASONS: Record<string, string> = {
  ENOTDIR: 'a part of its directory path is a file, not a directory',
  ENOENT: 'its directory does not exist and could not be created',
  EACCES: 'permission denied: its directory must be writable by this user',
  EPERM: 'permission denied: its directory must be writable by this user',
  EROFS: 'the file system is read-only',
  SQLITE_CANTOPEN: 'SQLite cannot open it (its directory must exist and be writable)',
  SQLITE_READONLY: 'it is read-only for this user',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_PERM: 'permission denied',
};

/**
 * The database's failure at start, naming what failed (host, port, database and user, or the SQLite file;
 * never the password), when it is one a person can fix; any other error unchanged.
 */
export function databaseFailure(error: unknown, target: DatabaseTarget): unknown {
  const failure = error as Failure;
  const code = failure?.code ?? '';
  if (target.provider === 'sqlite') {
    const reason = FILE_REASONS[code];
    if (!reason) return error;
    return new StartupError(
      `Cannot open the SQLite database ${resolve(target.file)} (DATABASE_URL=${target.url}): ${reason}. ` +
        'Set DATABASE_URL to a file in a writable directory.',
      { cause: error },
    );
  }
  const reason =
    NETWORK_REASONS[code] ??
    (code === '3D000'
      ? 'the database does not exist (create it, or fix the name in DATABASE_URL)'
      : undefined) ??
    (code.startsWith('28') || code.startsWith('08') ? failure.message : undefined);
  if (!reason) return error;
  const url = new URL(target.connectionString);
  const database = decodeURIComponent(url.pathname.slice(1)) || '(default)';
  const user = url.username ? ` as user "${decodeURIComponent(url.username)}"` : '';
  return new StartupError(
    `Cannot use the PostgreSQL database "${database}" at ${url.hostname || 'localhost'}:${url.port || 5432}${user}: ` +
      `${reason}. Check DATABASE_URL.`,
    { cause: error },
  );
}
