import type { MaybePromise } from '@whatwg-node/promise-helpers';
import { Redis, ReplyError } from 'ioredis';
import type { RateLimitConfig } from '../../config/rate-limits.ts';
import { type BreakerOptions, CircuitBreaker } from './breaker.ts';
import type { CounterStore, Log, WindowCount } from './counter.ts';
import { MemoryCounterStore } from './memory.ts';

// Both scripts keep one integer per key and window kind, expiring with its window. A window's id is its
// expiry time (PEXPIRETIME, Redis 7.0 or later), which a later window of the same key cannot share.

// KEYS: one counter per charge. ARGV: each charge's points, limit and window length (ms), in turn.
// Answers 1 or 0 (taken or not), then each window's count, ms left and id (zeros for none).
const TAKE_SCRIPT = `
local taken = true
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('get', key) or '0')
  if count + tonumber(ARGV[3 * i - 2]) > tonumber(ARGV[3 * i - 1]) then taken = false end
end
local reply = { taken and 1 or 0 }
for i, key in ipairs(KEYS) do
  local points = tonumber(ARGV[3 * i - 2])
  if taken and points > 0 then
    redis.call('set', key, 0, 'px', ARGV[3 * i], 'nx')
    redis.call('incrby', key, points)
  end
  local left = redis.call('pttl', key)
  if left > 0 then
    table.insert(reply, tonumber(redis.call('get', key)))
    table.insert(reply, left)
    table.insert(reply, redis.call('pexpiretime', key))
  else
    table.insert(reply, 0); table.insert(reply, 0); table.insert(reply, 0)
  end
end
return reply`;

// KEYS: one counter per refund. ARGV: each refund's points and window id, in turn. Answers 1 or 0 per refund.
const GIVE_BACK_SCRIPT = `
local reply = {}
for i, key in ipairs(KEYS) do
  if redis.call('pexpiretime', key) == tonumber(ARGV[2 * i]) then
    local count = tonumber(redis.call('get', key)) - tonumber(ARGV[2 * i - 1])
    redis.call('set', key, math.max(0, count), 'keepttl')
    reply[i] = 1
  else
    reply[i] = 0
  end
end
return reply`;

// KEYS: the caller's leases, a sorted set of lease ids by expiry (Redis's own clock, so that the gateways'
// clocks need not agree). ARGV: the lease id, the limit, its time to live (ms). Answers 1 when held, else 0.
const HOLD_LEASE_SCRIPT = `
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now)
if not redis.call('zscore', KEYS[1], ARGV[1]) and redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('zadd', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('pexpire', KEYS[1], ARGV[3])
return 1`;

// KEYS: the caller's leases. Answers how many have not expired, by Redis's clock.
const COUNT_LEASES_SCRIPT = `
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return redis.call('zcount', KEYS[1], '(' .. now, '+inf')`;

interface Scripts {
  countLeases(key: string): Promise<number>;
  holdLease(key: string, id: string, limit: number, ttlMs: number): Promise<number>;
  takeFromWindows(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
  giveBackToWindows(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
}

export interface RedisCounterOptions {
  url: string;
  keyPrefix: string;
  onFailure: RateLimitConfig['onRedisFailure'];
  /** A stalled Redis must not stall requests: past this, a command fails like a lost connection. */
  commandTimeoutMs?: number;
  /** When commands that fail in a row make Redis count as unreachable, without waiting on it. */
  breaker?: BreakerOptions;
}

export const REDIS_DEFAULTS = {
  commandTimeoutMs: 500,
  breaker: { failuresToOpen: 3, openMs: 5000 },
} as const;

/**
 * Counters in Redis. Resolves once the first connection attempt has succeeded or failed, so that a gateway
 * started beside a running Redis never counts its first requests locally. While Redis is unreachable,
 * `onFailure: 'open'` counts in this process and `'closed'` makes every call fail. An error Redis answers
 * (a script fault) is never failed over: it would hide a broken deployment behind per-process limits.
 */
export async function openRedisCounterStore(
  {
    url,
    keyPrefix,
    onFailure,
    commandTimeoutMs = REDIS_DEFAULTS.commandTimeoutMs,
    breaker: breakerOptions = REDIS_DEFAULTS.breaker,
  }: RedisCounterOptions,
  log: Log,
): Promise<CounterStore> {
  const client = new Redis(url, {
    // Fail commands at once while disconnected; ioredis keeps reconnecting in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
  });
  client.defineCommand('takeFromWindows', { lua: TAKE_SCRIPT });
  client.defineCommand('giveBackToWindows', { lua: GIVE_BACK_SCRIPT });
  client.defineCommand('holdLease', { lua: HOLD_LEASE_SCRIPT, numberOfKeys: 1 });
  client.defineCommand('countLeases', { lua: COUNT_LEASES_SCRIPT, numberOfKeys: 1 });
  const scripts = client as unknown as Scripts;
  // Used only while Redis is unreachable and failing open.
  const local = new MemoryCounterStore();

  let connected: boolean | undefined;
  let closing = false;
  const setConnected = (now: boolean, details: object) => {
    if (connected === now || closing) return;
    connected = now;
    if (now) log.info(details, 'Redis reachable: rate limits are shared by all gateway processes');
    else if (onFailure === 'open') {
      log.warn(details, 'Redis unreachable: counting rate limits in this process until it is back');
    } else log.warn(details, 'Redis unreachable: refusing API requests with 503 until it is back');
  };
  client.on('ready', () => setConnected(true, {}));
  client.on('error', (error: Error) => setConnected(false, { error: error.message }));
  client.on('close', () => setConnected(false, {}));
  await new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });

  const redisKey = (name: string, key: string) => `${keyPrefix}:${name}:${key}`;

  // A stalled Redis keeps its connection open: ioredis stays 'ready' while every command times out. The
  // breaker makes it count as unreachable, so that requests stop paying the timeout.
  const breaker = new CircuitBreaker(breakerOptions);
  const commandFailed = (error: unknown) => {
    if (!breaker.failed()) return;
    const details = { error: String(error), failuresToOpen: breakerOptions.failuresToOpen };
    if (onFailure === 'open') log.warn(details, 'Redis not answering: counting rate limits in this process');
    else log.warn(details, 'Redis not answering: refusing API requests with 503');
  };
  const commandSucceeded = () => {
    if (breaker.succeeded())
      log.info({}, 'Redis answering again: rate limits are shared by all gateway processes');
  };
  /** While the breaker is open, whether to go without Redis; once due, a probe runs in the background. */
  const skipRedis = () => {
    if (!breaker.isOpen) return false;
    if (breaker.probeDue()) client.ping().then(commandSucceeded, commandFailed);
    return true;
  };

  /**
   * The one fallback: `inRedis` while Redis answers; without it (unreachable, the breaker open, or a command that
   * failed for want of it) `inMemory` when failing open, an error when failing closed. An error Redis itself
   * answers is thrown as it is. The memory answer comes at once, not as a promise (the hot path).
   */
  function redisElseMemory<T>(inRedis: () => Promise<T>, inMemory: () => T): MaybePromise<T> {
    const withoutRedis = (cause?: unknown) => {
      if (onFailure === 'closed') throw cause ?? new Error('Redis connection is not ready');
      return inMemory();
    };
    if (client.status !== 'ready' || skipRedis()) return withoutRedis();
    return inRedis().then(
      (answer) => {
        commandSucceeded();
        return answer;
      },
      (error: unknown) => {
        if (error instanceof ReplyError) throw error;
        commandFailed(error);
        return withoutRedis(error);
      },
    );
  }

  return {
    take(key, charges) {
      return redisElseMemory(
        async () => {
          const args: (string | number)[] = charges.map(({ window }) => redisKey(window.name, key));
          for (const { window, points, limit } of charges) args.push(points, limit, window.seconds * 1000);
          const reply = await scripts.takeFromWindows(charges.length, ...args);
          return { taken: reply[0] === 1, windows: charges.map((_, i) => windowAt(reply, 1 + 3 * i)) };
        },
        () => {
          // Its window ids are handed out negated, so that a refund goes back to the store that took the points.
          const { taken, windows } = local.take(key, charges);
          return { taken, windows: windows.map((window) => ({ ...window, id: -window.id })) };
        },
      );
    },

    async giveBack(key, refunds) {
      if (refunds.every(({ id }) => id < 0)) {
        return local.giveBack(
          key,
          refunds.map((refund) => ({ ...refund, id: -refund.id })),
        );
      }
      if (client.status !== 'ready' || skipRedis()) return refunds.map(() => false);
      const args: (string | number)[] = refunds.map(({ window }) => redisKey(window.name, key));
      for (const { id, points } of refunds) args.push(points, id);
      try {
        const landed = await scripts.giveBackToWindows(refunds.length, ...args);
        commandSucceeded();
        return landed.map((one) => one === 1);
      } catch (error) {
        if (error instanceof ReplyError) throw error;
        commandFailed(error);
        return refunds.map(() => false); // A refund that cannot be made errs on the caller's side.
      }
    },

    holdLease(key, id, limit, ttlMs) {
      return redisElseMemory(
        async () => (await scripts.holdLease(redisKey('leases', key), id, limit, ttlMs)) === 1,
        () => local.holdLease(key, id, limit, ttlMs),
      );
    },

    countLeases(key) {
      return redisElseMemory(
        () => scripts.countLeases(redisKey('leases', key)),
        () => local.countLeases(key),
      );
    },

    async dropLease(key, id) {
      local.dropLease(key, id);
      if (client.status !== 'ready' || breaker.isOpen) return;
      // A lease that cannot be dropped now lapses at its expiry.
      await client.zrem(redisKey('leases', key), id).catch(() => {});
    },

    status: () => ({ store: 'redis', connected: connected === true && !breaker.isOpen, onFailure }),

    close: async () => {
      closing = true;
      // QUIT waits for Redis's answer: a stalled Redis gets no more than a command's time.
      const quit = client.quit().catch(() => {});
      await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, commandTimeoutMs))]);
      client.disconnect();
    },
  };
}

function windowAt(reply: number[], at: number): WindowCount {
  return { count: reply[at] ?? 0, msLeft: reply[at + 1] ?? 0, id: reply[at + 2] ?? 0 };
}
