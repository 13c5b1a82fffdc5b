import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ConfigError } from '../../src/config-error.ts';

it('has the documented limits, timeouts and log level by default', () => {
  expect(loadConfig({})).toMatchObject({
    logLevel: 'info',
    shutdownTimeoutMs: 10_000,
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
  expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
  expect(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
});

it.each([
  [{ GRAPHQL_MAX_DEPTH: '0' }, 'GRAPHQL_MAX_DEPTH="0": must be a whole number of levels >= 1'],
  [{ GRAPHQL_MAX_BODY_BYTES: '64k' }, 'GRAPHQL_MAX_BODY_BYTES="64k": must be a whole number of bytes >= 1'],
  [{ SHUTDOWN_TIMEOUT_MS: '-1' }, 'SHUTDOWN_TIMEOUT_MS="-1": must be a whole number of milliseconds >= 1'],
  [
    { HTTP_HEADERS_TIMEOUT_MS: '40000' },
    'HTTP_HEADERS_TIMEOUT_MS="40000": must not be more than HTTP_REQUEST_TIMEOUT_MS',
  ],
  [
    { LOG_LEVEL: 'verbose' },
    'LOG_LEVEL="verbose": must be one of fatal, error, warn, info, debug, trace, silent',
  ],
])('refuses %o with a clear message', (env, message) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(message);
});
