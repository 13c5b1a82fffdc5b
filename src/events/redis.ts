import { Redis } from 'ioredis';
import { type BusLog, type ChangeBus, Listeners } from './bus.ts';
import { type Change, parseChange } from './change.ts';

// A stalled Redis must not hold a write's response: past this, a publish fails (and is logged).
const PUBLISH_TIMEOUT_MS = 500;

export interface RedisBusOptions {
  url: string;
  /** The deployment's Redis prefix: the channel is `<prefix>:changes`. */
  keyPrefix: string;
}

/**
 * Changes through Redis pub/sub, shared by every gateway process on that Redis. A subscribed connection
 * can do nothing else, so the bus has two: one publishes, one listens (ioredis subscribes again after a
 * reconnection). Resolves once both have connected (and the listening one subscribed), or failed a first attempt.
 */
export async function openRedisChangeBus(
  { url, keyPrefix }: RedisBusOptions,
  log: BusLog,
): Promise<ChangeBus> {
  const channel = `${keyPrefix}:changes`;
  const publisher = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: PUBLISH_TIMEOUT_MS,
  });
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  const listeners = new Listeners(log);
  // Errors are logged where they matter (a publish that fails); ioredis reconnects by itself.
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const values: unknown = JSON.parse(text);
      for (const value of Array.isArray(values) ? values : []) {
        const change = parseChange(value);
        if (change) listeners.deliver(change);
      }
    } catch {
      log.warn({ channel }, 'a change event on Redis was not JSON: dropped');
    }
  });
  // Both connections up (or failed once) before the first write can publish or the first stream listen.
  const subscribed = new Promise<void>((resolve) => {
    subscriber.subscribe(channel).then(
      () => resolve(),
      () => resolve(),
    );
    subscriber.once('error', (error: Error) => {
      log.warn({ error: error.message }, 'Redis unreachable: subscriptions see no changes until it is back');
      resolve();
    });
  });
  const publishing = new Promise<void>((resolve) => {
    publisher.once('ready', resolve);
    publisher.once('error', () => resolve());
  });
  await Promise.all([subscribed, publishing]);

  return {
    publish(changes: readonly Change[]) {
      const lost = (error: unknown) =>
        log.warn({ error: String(error), changes: changes.length }, 'change events not published to Redis');
      try {
        publisher.publish(channel, JSON.stringify(changes)).catch(lost);
      } catch (error) {
        lost(error);
      }
    },
    listen: (listener) => listeners.add(listener),
    close: async () => {
      // The listening connection just goes (a QUIT would wait for a Redis that may be down); the publishing one
      // first sends what is queued.
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
