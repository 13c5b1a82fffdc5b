import type { MaybePromise } from '@whatwg-node/promise-helpers';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { isGatewayWorker } from '../cluster/role.ts';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import { openClusterCounterStore } from './cluster-counters.ts';
import { MemoryCounter } from './memory-counter.ts';

/**
 * Where rate-limit counters live: in this process, in the cluster primary (shared by its workers), or in
 * Redis shared by every gateway process.
 */
export interface CounterStore {
  /** A limiter on this store: fixed windows, one counter per key, constant memory. */
  limiter(options: LimiterOptions): Counter;
  status(): CounterStoreStatus;
  close(): Promise<void>;
}

/**
 * The operations of a rate-limiter-flexible limiter that the rate-limit layer uses. Counters kept in
 * this process answer at once; the others answer with a promise.
 */
export interface Counter {
  /** Adds `points` (default 1) to the key's counter. */
  penalty(key: string | number, points?: number): MaybePromise<CounterState>;
  /** Takes `points` back off the key's counter. */
  reward(key: string | number, points?: number): MaybePromise<CounterState>;
  /**
   * Adds `points`; when that goes past the limiter's points, throws (rejects with) the counter's state as a
   * rate-limiter-flexible RateLimiterRes.
   */
  consume(key: string | number, points?: number): MaybePromise<CounterState>;
  get(key: string | number): MaybePromise<CounterState | null>;
  set(key: string | number, points: number, seconds: number): MaybePromise<CounterState>;
}

/** A counter after a call: its count in the current window, and the time left until the window ends. */
export interface CounterState {
  consumedPoints: number;
  msBeforeNext: number;
}

export interface LimiterOptions {
  name: string;
  points: number;
  windowSeconds: number;
  blockSeconds?: number;
}

export type CounterStoreStatus =
  | { store: 'memory' }
  | { store: 'cluster' }
  | { store: 'redis'; connected: boolean; onFailure: RateLimitConfig['onRedisFailure'] };

/** The part of a pino logger used here. */
export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

// rate-limiter-flexible's own increment script, with one change: a negative increment (the refund of a
// refused request) on a window that has meanwhile expired does nothing, instead of opening a new window
// below zero that would admit extra requests. ioredis registers the script once per client under one
// name, so every limiter on the client uses this version.
const INCREMENT_SCRIPT = `
if tonumber(ARGV[1]) < 0 and redis.call('exists', KEYS[1]) == 0 then return {0, 0} end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`;

// A stalled Redis must not stall requests: past this, a command fails over like a lost connection.
const REDIS_COMMAND_TIMEOUT_MS = 500;

export function openMemoryCounterStore(): CounterStore {
  return {
    limiter: (options) => new MemoryCounter(options),
    status: () => ({ store: 'memory' }),
    close: async () => {},
  };
}

/**
 * Counters in Redis. Resolves once the first connection attempt has succeeded or failed, so that a
 * gateway started beside a running Redis never counts its first requests locally. While Redis is
 * unreachable, `onFailure: 'open'` counts in an in-process limiter per gateway (rate-limiter-flexible's
 * insuranceLimiter) and `'closed'` makes every limiter call fail.
 */
export async function openRedisCounterStore(
  {
    url,
    keyPrefix,
    onFailure,
  }: { url: string; keyPrefix: string; onFailure: RateLimitConfig['onRedisFailure'] },
  log: Log,
): Promise<CounterStore> {
  const client = new Redis(url, {
    // Fail commands at once while disconnected (the insurance limiter or a 503 answers instead);
    // ioredis keeps reconnecting in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
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

  return {
    limiter: (options) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${keyPrefix}:${options.name}`,
        points: options.points,
        duration: options.windowSeconds,
        blockDuration: options.blockSeconds ?? 0,
        customIncrTtlLuaScript: INCREMENT_SCRIPT,
        rejectIfRedisNotReady: true,
        // rate-limiter-flexible's own fallback, which takes only its own limiters.
        insuranceLimiter:
          onFailure === 'open'
            ? new RateLimiterMemory({
                keyPrefix: options.name,
                points: options.points,
                duration: options.windowSeconds,
                blockDuration: options.blockSeconds ?? 0,
              })
            : undefined,
      }),
    status: () => ({ store: 'redis', connected: connected === true, onFailure }),
    close: async () => {
      closing = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Redis when configured; else, in a worker of WORKERS > 1, the primary's counters; else this process's. */
export function openCounterStore(
  config: Pick<RateLimitConfig, 'redisUrl' | 'redisKeyPrefix' | 'onRedisFailure'>,
  log: Log,
): Promise<CounterStore> {
  const { redisUrl, redisKeyPrefix, onRedisFailure } = config;
  if (redisUrl) {
    return openRedisCounterStore(
      { url: redisUrl, keyPrefix: redisKeyPrefix, onFailure: onRedisFailure },
      log,
    );
  }
  return Promise.resolve(isGatewayWorker() ? openClusterCounterStore() : openMemoryCounterStore());
}
