// The counters of a gateway with WORKERS > 1 and no Redis: one memory store in the cluster primary, which
// every worker reaches over IPC, so that all workers count together. rate-limiter-flexible's own
// RateLimiterCluster does the same but cannot `set` a counter, which the ban needs (limiter.ts holds the
// minute counter above every limit while a caller is banned); this store forwards each limiter call as it is.
import type { MaybePromise } from '@whatwg-node/promise-helpers';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { answerWorkers, askPrimary } from '../cluster/ipc.ts';
import type { Counter, CounterState, CounterStore, LimiterOptions } from './counters.ts';

const CHANNEL = 'petstore:counters';
// The primary answers within a turn of its event loop; past this, requests get 503 UNAVAILABLE.
const PRIMARY_TIMEOUT_MS = 1000;

type Operation = { key: string | number } & (
  | { method: 'consume' | 'penalty' | 'reward'; points: number }
  | { method: 'get' }
  | { method: 'set'; points: number; seconds: number }
);

/** One limiter call; it names its limiter's options, so that the primary creates it on first use. */
type Call = Operation & { limiter: LimiterOptions };

type Outcome = { resolved: CounterState | null } | { rejected: CounterState };

/** In the primary: keeps the workers' counters in `store` (a memory store) and answers their calls. */
export function serveCounterStore(store: CounterStore): void {
  const limiters = new Map<string, Counter>();
  const limiterFor = (options: LimiterOptions) => {
    let limiter = limiters.get(options.name);
    if (!limiter) {
      limiter = store.limiter(options);
      limiters.set(options.name, limiter);
    }
    return limiter;
  };
  answerWorkers<Call, Outcome>(CHANNEL, async (call) => {
    const limiter = limiterFor(call.limiter);
    try {
      const result = await perform(limiter, call);
      return { resolved: result && stateOf(result) };
    } catch (rejection) {
      // A consume over the limit rejects with the counter's state, which the caller reads.
      if (rejection instanceof RateLimiterRes) return { rejected: stateOf(rejection) };
      throw rejection;
    }
  });
}

function perform(limiter: Counter, call: Operation): MaybePromise<CounterState | null> {
  switch (call.method) {
    case 'consume':
    case 'penalty':
    case 'reward':
      return limiter[call.method](call.key, call.points);
    case 'get':
      return limiter.get(call.key);
    case 'set':
      return limiter.set(call.key, call.points, call.seconds);
  }
}

/** In a worker: counters kept by the primary's `serveCounterStore`. */
export function openClusterCounterStore(): CounterStore {
  const ask = askPrimary<Call, Outcome>(CHANNEL, { timeoutMs: PRIMARY_TIMEOUT_MS });
  return {
    limiter(options) {
      const perform = async (operation: Operation) => {
        const outcome = await ask({ ...operation, limiter: options });
        if ('rejected' in outcome) {
          const { msBeforeNext, consumedPoints } = outcome.rejected;
          throw new RateLimiterRes(0, msBeforeNext, consumedPoints);
        }
        return outcome.resolved;
      };
      // Every call but `get` answers a state.
      const state = async (operation: Operation) => (await perform(operation)) as CounterState;
      return {
        consume: (key, points = 1) => state({ method: 'consume', key, points }),
        penalty: (key, points = 1) => state({ method: 'penalty', key, points }),
        reward: (key, points = 1) => state({ method: 'reward', key, points }),
        get: (key) => perform({ method: 'get', key }),
        set: (key, points, seconds) => state({ method: 'set', key, points, seconds }),
      };
    },
    status: () => ({ store: 'cluster' }),
    close: async () => {},
  };
}

/** The state alone, which (unlike a RateLimiterRes, whose fields are getters) survives the IPC channel. */
function stateOf({ consumedPoints, msBeforeNext }: CounterState): CounterState {
  return { consumedPoints, msBeforeNext };
}
