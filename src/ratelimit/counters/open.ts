import { isGatewayWorker } from '../../cluster/role.ts';
import type { RateLimitConfig } from '../../config/rate-limits.ts';
import { openClusterCounterStore } from './cluster.ts';
import type { CounterStore, Log } from './counter.ts';
import { openMemoryCounterStore } from './memory.ts';
import { openRedisCounterStore } from './redis.ts';

/** Redis when configured; else, in a worker of WORKERS > 1, the primary's counters; else this process's. */
export function openCounterStore(
  config: Pick<
    RateLimitConfig,
    | 'redisUrl'
    | 'redisKeyPrefix'
    | 'onRedisFailure'
    | 'redisCommandTimeoutMs'
    | 'redisBreakerFailures'
    | 'redisBreakerOpenMs'
  >,
  log: Log,
): Promise<CounterStore> {
  const { redisUrl, redisKeyPrefix, onRedisFailure } = config;
  if (redisUrl) {
    return openRedisCounterStore(
      {
        url: redisUrl,
        keyPrefix: redisKeyPrefix,
        onFailure: onRedisFailure,
        commandTimeoutMs: config.redisCommandTimeoutMs,
        breaker: { failuresToOpen: config.redisBreakerFailures, openMs: config.redisBreakerOpenMs },
      },
      log,
    );
  }
  return Promise.resolve(isGatewayWorker() ? openClusterCounterStore() : openMemoryCounterStore());
}
