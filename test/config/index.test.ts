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

  /** A row of the table below: `name=value`, refused with `name="value": rule`. */
  const refused = (name: string, value: string, rule: string): [Record<string, string>, string] => [
    { [name]: value },
    `${name}="${value}": ${rule}`,
  ];
  const NOT_A_DATABASE = 'DATABASE_URL must be file:… (SQLite) or postgresql://… (PostgreSQL)';

  it.each([
    ...['abc', '70000'].map((port) => refused('PORT', port, 'must be a whole number from 0 to 65535')),
    refused('HOST', '', 'must not be empty'),
    refused('DATABASE_URL', 'mysql://root@127.0.0.1/shop', `MySQL is not supported: ${NOT_A_DATABASE}`),
    [{ DATABASE_URL: 'mariadb://db/shop' }, 'MariaDB is not supported'],
    refused(
      'DATABASE_URL',
      'postgress://root@127.0.0.1:5432/test',
      `unknown scheme "postgress:": did you mean postgresql://root@127.0.0.1:5432/test? ${NOT_A_DATABASE}`,
    ),
    ...['postgre://db/x', 'PostgresSQL://db/x', 'pgsql://db/x', 'postgresql:/db/x'].map(
      (url): [Record<string, string>, string] => [{ DATABASE_URL: url }, 'did you mean postgresql://db/x?'],
    ),
    [{ DATABASE_URL: 'sqlite:./data/petstore.db' }, 'did you mean file:./data/petstore.db'],
    refused('DATABASE_URL', 'redis://x', 'DATABASE_URL must be file:… (SQLite) or postgresql://…'),
    [{ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' }, 'is not a plain identifier'],
    refused('GRAPHQL_MAX_DEPTH', '0', 'must be a whole number of levels >= 1'),
    refused('GRAPHQL_MAX_BODY_BYTES', '64k', 'must be a whole number of bytes >= 1'),
    refused('SHUTDOWN_TIMEOUT_MS', '-1', 'must be a whole number of milliseconds >= 1'),
    ...['-1', '3s'].map((delay) =>
      refused('SHUTDOWN_DELAY_MS', delay, 'must be a whole number of milliseconds >= 0'),
    ),
    ...['0', 'all'].map((workers) =>
      refused('WORKERS', workers, 'must be a whole number >= 1, or auto (one per CPU)'),
    ),
    refused('HTTP_HEADERS_TIMEOUT_MS', '40000', 'must not be more than HTTP_REQUEST_TIMEOUT_MS'),
    ...['64KB', '20000000'].map((bytes) =>
      refused('IDEMPOTENCY_MAX_RECORD_BYTES', bytes, 'must be a whole number of bytes from 0 to 16777216'),
    ),
    refused('IDEMPOTENCY_MAX_BYTES_PER_KEY', '1000', 'must not be less than IDEMPOTENCY_MAX_RECORD_BYTES'),
    refused('LOG_LEVEL', 'verbose', 'must be one of fatal, error, warn, info, debug, trace, silent'),
    ...['text', 'JSON'].map((format) => refused('LOG_FORMAT', format, 'must be one of json, pretty')),
    ...['true', 'ON'].map((federation) => refused('FEDERATION', federation, 'must be one of on, off')),
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
