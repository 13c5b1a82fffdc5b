// V8 keeps its young generation as large as a busy spell grew it (up to three times the --max-semi-space-size that
// `npm start` gives), and shrinks it only at a collection that finds the allocation rate of the last seconds low:
// an idle process collects nothing, so it would hold that memory until the next spell. Once no request has come
// for a few seconds after a spell that grew it, this runs a full collection once a second, ten in all.
import type { Server } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

const QUIET_MS = 5_000;
const TICK_MS = 1_000;
/** Per quiet spell. */
const MAX_COLLECTIONS = 10;

export interface IdleMemoryDeps {
  now: () => number;
  collect: () => void;
  youngGenerationBytes: () => number;
}

/** The decision, apart from timers: `requestArrived` on each request, `tick` once a second. */
export function idleMemory({ now, collect, youngGenerationBytes }: IdleMemoryDeps) {
  const resting = youngGenerationBytes();
  let lastRequestAt = now();
  let collections = 0;
  return {
    requestArrived() {
      lastRequestAt = now();
      collections = 0;
    },
    tick() {
      if (now() - lastRequestAt < QUIET_MS || collections >= MAX_COLLECTIONS) return;
      // Only after a spell that grew the young generation; then all ten, as what the spell left keeps turning
      // into garbage for some seconds (the database pool closes its idle connections after 10 s).
      if (collections === 0 && youngGenerationBytes() <= resting) return;
      collections++;
      collect();
    },
  };
}

/** Watches `server`'s requests; answers a function that stops watching. */
export function giveBackMemoryWhenIdle(server: Server): () => void {
  const watch = idleMemory({
    now: () => performance.now(),
    collect: fullCollection(),
    youngGenerationBytes: () =>
      v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
  });
  const onRequest = () => watch.requestArrived();
  server.on('request', onRequest);
  const timer = setInterval(() => watch.tick(), TICK_MS).unref();
  return () => {
    clearInterval(timer);
    server.off('request', onRequest);
  };
}

/**
 * V8's `gc`, taken from a fresh context rather than exposed to every module as a global. Called without options:
 * Node 20's V8 frees only part of the old generation's garbage when `gc` is given `{ type: 'major' }`.
 */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => gc();
}
