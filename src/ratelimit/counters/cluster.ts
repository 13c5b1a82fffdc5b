// The counters of a gateway with WORKERS > 1 and no Redis: one memory store in the cluster primary, which
// every worker reaches over IPC, so that all workers count together.
import { answerWorkers, askPrimary } from '../../cluster/ipc.ts';
import type { Charge, CounterStore, Refund, Take } from './counter.ts';

const CHANNEL = 'petstore:counters';
// The primary answers within a turn of its event loop; past this, requests get 503 UNAVAILABLE.
const PRIMARY_TIMEOUT_MS = 1000;

type Call =
  | { method: 'take'; key: string; charges: readonly Charge[] }
  | { method: 'giveBack'; key: string; refunds: readonly Refund[] }
  | { method: 'holdLease'; key: string; id: string; limit: number; ttlMs: number }
  | { method: 'dropLease'; key: string; id: string }
  | { method: 'countLeases'; key: string };

type Answer = Take | boolean[] | boolean | number | undefined;

/** In the primary: keeps the workers' counters in `store` (a memory store) and answers their calls. */
export function serveCounterStore(store: CounterStore): void {
  answerWorkers<Call, Answer>(CHANNEL, (call): Answer | Promise<Answer> => {
    switch (call.method) {
      case 'take':
        return Promise.resolve(store.take(call.key, call.charges));
      case 'giveBack':
        return Promise.resolve(store.giveBack(call.key, call.refunds));
      case 'holdLease':
        return Promise.resolve(store.holdLease(call.key, call.id, call.limit, call.ttlMs));
      case 'dropLease':
        return Promise.resolve(store.dropLease(call.key, call.id)).then(() => undefined);
      case 'countLeases':
        return Promise.resolve(store.countLeases(call.key));
    }
  });
}

/** In a worker: counters kept by the primary's `serveCounterStore`. */
export function openClusterCounterStore(): CounterStore {
  const ask = askPrimary<Call, Answer>(CHANNEL, { timeoutMs: PRIMARY_TIMEOUT_MS });
  return {
    take: (key, charges) => ask({ method: 'take', key, charges }) as Promise<Take>,
    giveBack: (key, refunds) => ask({ method: 'giveBack', key, refunds }) as Promise<boolean[]>,
    holdLease: (key, id, limit, ttlMs) =>
      ask({ method: 'holdLease', key, id, limit, ttlMs }) as Promise<boolean>,
    dropLease: async (key, id) => {
      await ask({ method: 'dropLease', key, id });
    },
    countLeases: (key) => ask({ method: 'countLeases', key }) as Promise<number>,
    status: () => ({ store: 'cluster' }),
    close: async () => {},
  };
}
