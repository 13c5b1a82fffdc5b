import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Db } from '../db/client.ts';
import { databaseUsageStore, type UsageStore } from './counts.ts';
import { redisUsageStore } from './redis-store.ts';

/** Where usage counts are shared: Redis when configured (as the rate limits are), else the database. */
export function openUsageStore(
  prisma: Db,
  config: Pick<RateLimitConfig, 'redisUrl' | 'redisKeyPrefix' | 'redisCommandTimeoutMs'>,
): UsageStore {
  return config.redisUrl
    ? redisUsageStore({
        url: config.redisUrl,
        keyPrefix: config.redisKeyPrefix,
        commandTimeoutMs: config.redisCommandTimeoutMs,
      })
    : databaseUsageStore(prisma);
}
