import { isGatewayWorker } from '../cluster/role.ts';
import { type BusLog, type ChangeBus, openMemoryChangeBus } from './bus.ts';
import { openClusterChangeBus } from './cluster.ts';
import { openRedisChangeBus } from './redis.ts';

/** Redis when configured; else, in a worker of WORKERS > 1, through the primary; else this process alone. */
export function openChangeBus(
  { redisUrl, redisKeyPrefix }: { redisUrl: string | undefined; redisKeyPrefix: string },
  log: BusLog,
): Promise<ChangeBus> {
  if (redisUrl) return openRedisChangeBus({ url: redisUrl, keyPrefix: redisKeyPrefix }, log);
  return Promise.resolve(isGatewayWorker() ? openClusterChangeBus(log) : openMemoryChangeBus(log));
}
