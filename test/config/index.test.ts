import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/config/database-url.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ConfigError } from '../../src/config/read.ts';

describe('configuration', () => {
  it('has defaults that need nothing', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      database: { provider: 'sqlite', file: './data/petstore.db' },
    });
  });

  it('has the documented limits, timeouts and log level by default', () => {
    expect(loadConfig({})).toMatchObject({
      logLevel: 'info',
      shutdownTimeoutMs: 10_000,
      shutdownDelayMs: 0,
      http: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
      graphqlLimits: {
        maxBodyBytes: 65_536,
        maxDepth: 10,
        maxCost: 20_000,
        maxAliases: 15,
        maxDirectives: 50,
        maxTokens: 2_000,
      },
    });
    expect(loadConfig({}).idempotency).toEqual({ maxRecordBytes: 65_536, maxBytesPerKey: 33_554_432 });
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  });

  it('serves in one process by default; WORKERS=auto forks one worker per CPU', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
  });

  it('serves no federation subgraph unless FEDERATION=on', () => {
    expect(loadConfig({}).federation).toBe(false);
    expect(loadConfig({ FEDERATION: 'off' }).federation).toBe(false);
    expect(loadConfig({ FEDERATION: 'on' }).federation).toBe(true);
  });

  it('keeps serving for SHUTDOWN_DELAY_MS after SIGTERM when told to', () => {
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '3000' }).shutdownDelayMs).toBe(3000);
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
  });

  it('reads PostgreSQL from DATABASE_URL, with schema and pool size', () => {
    const { database } = loadConfig({
      DATABASE_URL: 'postgresql://u:secret@db:5432/store?schema=gw&connection_limit=4',
    });
    expect(database).toMatchObject({ provider: 'postgresql', schema: 'gw', poolSize: 4 });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc": must be a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT="70000": must be a whole number from 0 to 65535'],
    [{ HOST: '' }, 'HOST="": must not be empty'],
    [
      { DATABASE_URL: 'mysql://root@127.0.0.1/shop' },
      'DATABASE_URL="mysql://root@127.0.0.1/shop": MySQL is not supported: DATABASE_URL must be file:… (SQLite) or postgresql://… (PostgreSQL)',
    ],
    [{ DATABASE_URL: 'mariadb://db/shop' }, 'MariaDB is not supported'],
    [
      { DATABASE_URL: 'postgress://root@127.0.0.1:5432/test' },
      'DATABASE_URL="postgress://root@127.0.0.1:5432/test": unknown scheme "postgress:": did you mean postgresql://root@127.0.0.1:5432/test? DATABASE_URL must be file:… (SQLite) or postgresql://… (PostgreSQL)',
    ],
    [{ DATABASE_URL: 'postgre://db/x' }, 'did you mean postgresql://db/x?'],
    [{ DATABASE_URL: 'PostgresSQL://db/x' }, 'did you mean postgresql://db/x?'],
    [{ DATABASE_URL: 'pgsql://db/x' }, 'did you mean postgresql://db/x?'],
    [{ DATABASE_URL: 'postgresql:/db/x' }, 'did you mean postgresql://db/x?'],
    [{ DATABASE_URL: 'sqlite:./data/petstore.db' }, 'did you mean file:./data/petstore.db'],
    [
      { DATABASE_URL: 'redis://x' },
      'DATABASE_URL="redis://x": DATABASE_URL must be file:… (SQLite) or postgresql://…',
    ],
    [{ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' }, 'is not a plain identifier'],
    [{ GRAPHQL_MAX_DEPTH: '0' }, 'GRAPHQL_MAX_DEPTH="0": must be a whole number of levels >= 1'],
    [{ GRAPHQL_MAX_BODY_BYTES: '64k' }, 'GRAPHQL_MAX_BODY_BYTES="64k": must be a whole number of bytes >= 1'],
    [{ SHUTDOWN_TIMEOUT_MS: '-1' }, 'SHUTDOWN_TIMEOUT_MS="-1": must be a whole number of milliseconds >= 1'],
    [{ SHUTDOWN_DELAY_MS: '-1' }, 'SHUTDOWN_DELAY_MS="-1": must be a whole number of milliseconds >= 0'],
    [{ SHUTDOWN_DELAY_MS: '3s' }, 'SHUTDOWN_DELAY_MS="3s": must be a whole number of milliseconds >= 0'],
    [{ WORKERS: '0' }, 'WORKERS="0": must be a whole number >= 1, or auto (one per CPU)'],
    [{ WORKERS: 'all' }, 'WORKERS="all": must be a whole number >= 1, or auto (one per CPU)'],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '40000' },
      'HTTP_HEADERS_TIMEOUT_MS="40000": must not be more than HTTP_REQUEST_TIMEOUT_MS',
    ],
    [
      { IDEMPOTENCY_MAX_RECORD_BYTES: '64KB' },
      'IDEMPOTENCY_MAX_RECORD_BYTES="64KB": must be a whole number of bytes from 0 to 16777216',
    ],
    [
      { IDEMPOTENCY_MAX_RECORD_BYTES: '20000000' },
      'IDEMPOTENCY_MAX_RECORD_BYTES="20000000": must be a whole number of bytes from 0 to 16777216',
    ],
    [
      { IDEMPOTENCY_MAX_BYTES_PER_KEY: '1000' },
      'IDEMPOTENCY_MAX_BYTES_PER_KEY="1000": must not be less than IDEMPOTENCY_MAX_RECORD_BYTES',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL="verbose": must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [{ LOG_FORMAT: 'text' }, 'LOG_FORMAT="text": must be one of json, pretty'],
    [{ LOG_FORMAT: 'JSON' }, 'LOG_FORMAT="JSON": must be one of json, pretty'],
    [{ FEDERATION: 'true' }, 'FEDERATION="true": must be one of on, off'],
    [{ FEDERATION: 'ON' }, 'FEDERATION="ON": must be one of on, off'],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never prints a database password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' })).toThrow(/u:\*\*\*@/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' })).not.toThrow(/secret/);
    // Nor in the URL a typo's message suggests.
    expect(() => loadConfig({ DATABASE_URL: 'postgress://u:secret@db/x' })).toThrow(
      'postgresql://u:***@db/x?',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgress://u:secret@db/x' })).not.toThrow(/secret/);
  });

  it('lists every problem of every part at once, in one format', () => {
    expect(() => loadConfig({ PORT: 'x', HOST: '' })).toThrow(/HOST.*\n.*PORT|PORT.*\n.*HOST/);
    expect(() =>
      loadConfig({ PORT: 'x', RATE_LIMIT_BAN_AFTER: '0', GRAPHQL_MAX_DEPTH: 'deep', SEED_DEMO_DATA: 'yes' }),
    ).toThrow(
      new RegExp(
        `^${[
          'Invalid configuration:',
          '  PORT="x": must be a whole number from 0 to 65535',
          '  SEED_DEMO_DATA="yes": must be true or false',
          '  GRAPHQL_MAX_DEPTH="deep": must be a whole number of levels >= 1',
          '  RATE_LIMIT_BAN_AFTER="0": must be a whole number >= 1',
        ].join('\n')}$`,
      ),
    );
  });

  it('names a setting left at its default when a rule between two settings fails', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_MS (not set): must not be more than HTTP_REQUEST_TIMEOUT_MS',
    );
  });

  it('never prints a Redis password either', () => {
    const load = () => loadConfig({ REDIS_URL: 'http://:hunter2@cache:6379', PORT: 'x' });
    expect(load).toThrow('REDIS_URL="http://:***@cache:6379/": must start with redis:// or rediss://');
    expect(load).not.toThrow(/hunter2/);
  });
});

describe('redact', () => {
  it.each([
    ['postgresql://u:secret@db:5432/x', 'postgresql://u:***@db:5432/x'],
    ['postgresql://:secret@db/x', 'postgresql://:***@db/x'],
    ['postgresql://u:se%2Fcret@db/x', 'postgresql://u:***@db/x'],
    ['postgresql://u@db/x?password=secret', 'postgresql://u@db/x?password=***'],
    ['file:./data/petstore.db', 'file:./data/petstore.db'],
  ])('hides the password of %s', (url, shown) => {
    expect(redact(url)).toBe(shown);
  });
});
