import { isPromise } from '@whatwg-node/promise-helpers';
import { describe, expect, it } from 'vitest';
import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';
import { ApiError } from '../../src/contract/errors.ts';
import type { Limits } from '../../src/contract/plans.ts';
import { openMemoryCounterStore } from '../../src/ratelimit/counters/memory.ts';
import { createFieldLimiter } from '../../src/ratelimit/field-limits.ts';
import { createRateLimiter } from '../../src/ratelimit/limiter.ts';
import { createRateLimitPlugin, type RateLimitedContext } from '../../src/ratelimit/plugin.ts';
import { RequestQuota } from '../../src/ratelimit/quota.ts';
import { freshSubject, silentLog, TestClock } from './stores.ts';

const config = { ...loadRateLimitConfig({}), fieldLimits: { placeOrder: 1 } };

/** The quotas of successive requests of one caller, on in-process counters and a test clock. */
function caller(limits: Limits, { banAfterRefusals = config.banAfterRefusals, subscriptions = 0 } = {}) {
  const clock = new TestClock();
  const store = openMemoryCounterStore({ now: clock.now });
  let open = 0;
  const counting = {
    limiter: createRateLimiter(store, { ...config, banAfterRefusals }, { now: clock.now }),
    limitFields: createFieldLimiter(store, config),
    // The first `subscriptions` are held, the rest refused at the cap.
    holdSubscription: () => (open++ < subscriptions ? { release() {} } : undefined),
  };
  const identity = {
    caller: { kind: 'anonymous', ip: '192.0.2.1' } as const,
    subject: freshSubject(),
    limits,
    maxSubscriptions: 2,
    keyRefused: false,
  };
  return { clock, request: () => new RequestQuota(identity, counting) };
}

/** Pays for an operation (or the rest of a batch) and answers the refusal's code, if any. */
async function pay(quota: RequestQuota, operations: number) {
  try {
    await quota.pay(operations);
    return 'ok';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error.code;
  }
}

const twoPlaceOrders = new Map([['placeOrder', 2]]);

describe("a request's quota", () => {
  it('gives back one point per operation refused by a per-field limit, never more than the request paid', async () => {
    const { request } = caller({ perMinute: 5, perDay: 100 });
    const batch = request();
    expect([await pay(batch, 1), await pay(batch, 2)]).toEqual(['ok', 'ok']);
    expect(batch.remaining).toBe(2);

    for (let refused = 1; refused <= 3; refused++) {
      expect(await batch.limitFields(twoPlaceOrders)).toMatchObject({ code: 'RATE_LIMITED' });
      expect(batch.remaining).toBe(2 + refused);
    }
    expect(batch.everyOperationRefused).toBe(true);
    // A fourth refusal has nothing left to give back.
    await batch.limitFields(twoPlaceOrders);
    expect(batch.remaining).toBe(5);

    const next = request();
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await pay(next, 1));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED']);
  });

  it('refuses a batch whose rest does not fit, giving its first point back to the window it came from only', async () => {
    const { clock, request } = caller({ perMinute: 2, perDay: 100 });
    const batch = request();
    expect(await pay(batch, 1)).toBe('ok');
    clock.advance(60_000); // the first operation's minute ends while the batch is parsed
    expect(await pay(batch, 3)).toBe('RATE_LIMITED');
    expect(batch.remaining).toBe(2);

    const next = request();
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await pay(next, 1));
    expect(outcomes).toEqual(['ok', 'ok', 'RATE_LIMITED']);
  });

  it.each([
    {
      refusal: 'a per-field limit',
      code: 'RATE_LIMITED',
      refuse: (quota: RequestQuota) => quota.limitFields(new Map([['placeOrder', 1]])),
    },
    {
      refusal: 'the subscription cap',
      code: 'TOO_MANY_SUBSCRIPTIONS',
      refuse: (quota: RequestQuota) => quota.holdSubscription(),
    },
  ])(
    'counts each refusal by $refusal toward the ban, though it gives its point back',
    async ({ code, refuse }) => {
      const { request } = caller({ perMinute: 100, perDay: 1000 }, { banAfterRefusals: 3, subscriptions: 1 });
      const codes = [];
      for (let i = 0; i < 5; i++) {
        const quota = request();
        expect(await pay(quota, 1)).toBe('ok');
        const refused = await refuse(quota);
        codes.push(refused instanceof ApiError ? refused.code : 'ok');
        if (codes.at(-1) === 'KEY_BANNED') {
          expect(quota.retryAfterSeconds).toBe(config.banSeconds);
          expect(quota.remaining).toBe(0);
        }
      }
      expect(codes).toEqual(['ok', code, code, code, 'KEY_BANNED']);
      expect(await pay(request(), 1)).toBe('KEY_BANNED');
    },
  );

  it('shows the tightest window, with remaining never above the limit', async () => {
    const { request } = caller({ perMinute: 10, perDay: 3 });
    const quota = request();
    await pay(quota, 1);
    expect({ limit: quota.limit, remaining: quota.remaining }).toEqual({ limit: 3, remaining: 2 });
    await quota.limitFields(new Map([['placeOrder', 5]]));
    expect({ limit: quota.limit, remaining: quota.remaining }).toEqual({ limit: 3, remaining: 3 });
    await quota.limitFields(new Map([['placeOrder', 5]]));
    expect(quota.remaining).toBe(3);
  });
});

describe('the rate-limit plugin on in-process counters', () => {
  it('counts a request with a cached key, and takes a per-field limit, without waiting on a promise', () => {
    const plugin = createRateLimitPlugin({
      config,
      counters: openMemoryCounterStore(),
      findKey: () => ({ id: 7n, plan: 'pro', scopes: ['read'], trustedDocuments: null }), // a cached key comes back at once
      log: silentLog,
    });
    const serverContext: RateLimitedContext = { req: { socket: { remoteAddress: '127.0.0.1' } } };
    const request = new Request('http://gateway/graphql', {
      method: 'POST',
      headers: { 'x-api-key': 'psk_x' },
    });
    const hooks = plugin.onRequestParse?.({ request, serverContext } as never);
    expect(isPromise(hooks)).toBe(false);
    expect(serverContext.caller).toEqual({
      kind: 'key',
      keyId: 7n,
      plan: 'pro',
      ip: '127.0.0.1',
      scopes: ['read'],
      trustedDocuments: null,
    });
    expect(serverContext.quota?.remaining).toBe(299);

    const taken = serverContext.quota?.limitFields(new Map([['placeOrder', 1]]));
    expect(taken).toBeUndefined();
    const refused = serverContext.quota?.limitFields(new Map([['placeOrder', 1]]));
    expect(isPromise(refused)).toBe(false);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
