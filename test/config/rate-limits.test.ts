import { describe, expect, it } from 'vitest';
import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';

describe('rate-limit configuration', () => {
  it('defaults to the spec plan table, minute and day windows, a 30-refusal / 10-minute ban, memory, failing open', () => {
    expect(loadRateLimitConfig({})).toEqual({
      plans: {
        free: { perMinute: 60, perDay: 1000 },
        pro: { perMinute: 300, perDay: 10_000 },
        business: { perMinute: 1000, perDay: 100_000 },
      },
      minuteSeconds: 60,
      daySeconds: 86_400,
      banAfterRefusals: 30,
      banSeconds: 600,
      trustProxyHops: 0,
      redisUrl: undefined,
      redisBreakerFailures: 3,
      redisBreakerOpenMs: 5000,
      redisCommandTimeoutMs: 500,
      redisKeyPrefix: 'psg',
      onRedisFailure: 'open',
      keyCacheTtlMs: 5000,
      keyCacheSize: 10_000,
      fieldLimits: { placeOrder: 10 },
      introspectionPerMinute: 30,
      maxSubscriptions: { free: 2, pro: 10, business: 50, enterprise: 200 },
      subscriptionLeaseSeconds: 60,
    });
  });

  it('takes caps of open subscriptions per plan, enterprise included, and refuses other names', () => {
    const config = loadRateLimitConfig({ MAX_SUBSCRIPTIONS: '{"free":3,"enterprise":1000}' });
    expect(config.maxSubscriptions).toEqual({ free: 3, pro: 10, business: 50, enterprise: 1000 });
    expect(() => loadRateLimitConfig({ MAX_SUBSCRIPTIONS: '{"gold":3}' })).toThrow(
      'MAX_SUBSCRIPTIONS="{\\"gold\\":3}": only free, pro, business and enterprise have caps',
    );
    expect(() => loadRateLimitConfig({ MAX_SUBSCRIPTIONS: '{"pro":0}' })).toThrow(
      'MAX_SUBSCRIPTIONS="{\\"pro\\":0}": pro: must be a whole number >= 1',
    );
  });

  it('takes overrides of single plan entries and treats empty variables as unset', () => {
    const config = loadRateLimitConfig({
      RATE_LIMIT_PLANS: '{"pro":{"perDay":20000}}',
      REDIS_URL: '',
      TRUST_PROXY: '2',
    });
    expect(config.plans.pro).toEqual({ perMinute: 300, perDay: 20_000 });
    expect(config.redisUrl).toBeUndefined();
    expect(config.trustProxyHops).toBe(2);
  });

  it('names every bad variable in one error', () => {
    const load = () =>
      loadRateLimitConfig({
        RATE_LIMIT_PLANS: '{"enterprise":{"perMinute":5}}',
        RATE_LIMIT_MINUTE_SECONDS: '0',
        RATE_LIMIT_ON_REDIS_FAILURE: 'maybe',
        REDIS_URL: 'localhost:6379',
      });
    expect(load).toThrow(
      [
        'Invalid configuration:',
        '  RATE_LIMIT_PLANS="{\\"enterprise\\":{\\"perMinute\\":5}}": only free, pro and business have table entries (enterprise limits are set per key)',
        '  RATE_LIMIT_MINUTE_SECONDS="0": must be a whole number >= 1',
        '  RATE_LIMIT_ON_REDIS_FAILURE="maybe": Invalid option: expected one of "open"|"closed"',
        '  REDIS_URL="localhost:6379": must start with redis:// or rediss://',
      ].join('\n'),
    );
    expect(() => loadRateLimitConfig({ RATE_LIMIT_PLANS: '{"free":' })).toThrow(
      'RATE_LIMIT_PLANS="{\\"free\\":": is not valid JSON',
    );
    expect(() => loadRateLimitConfig({ RATE_LIMIT_PLANS: '{"pro":{"perDay":0}}' })).toThrow(
      'RATE_LIMIT_PLANS="{\\"pro\\":{\\"perDay\\":0}}": pro.perDay: must be a whole number >= 1',
    );
  });
});
