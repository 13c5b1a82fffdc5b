// Requests from a worker to the cluster primary over node:cluster's IPC channel, each answered once. The
// channel name keeps apart the users of the one IPC channel (rate-limit counters, metrics, prom-client's own).
// The requests of one event-loop turn travel in one message and are answered in one reply, because each IPC
// message costs both processes a serialization and a system call (figures: docs/rate-limits.md).
import cluster from 'node:cluster';

interface Batch {
  channel: string;
  requests: { id: number; payload: unknown }[];
}

type Reply = { id: number } & ({ value: unknown } | { error: string });

interface Replies {
  channel: string;
  replies: Reply[];
}

/**
 * In a worker: sends a payload to the primary's `answerWorkers` for `channel`; resolves with its answer, or
 * rejects when none came within `timeoutMs` (a stalled primary must not stall the worker's requests).
 */
export function askPrimary<Payload, Answer>(
  channel: string,
  { timeoutMs }: { timeoutMs: number },
): (payload: Payload) => Promise<Answer> {
  if (!process.send) throw new Error('askPrimary runs in a worker forked by a node:cluster primary');
  const send = process.send.bind(process);
  const pending = new Map<
    number,
    { resolve(value: Answer): void; reject(error: Error): void; deadline: number }
  >();
  let queued: Batch['requests'] = [];
  let lastId = 0;
  // One sweep for all requests, rather than a timer each: the counters ask on every API request.
  setInterval(
    () => {
      const now = Date.now();
      for (const [id, waiting] of pending) {
        if (waiting.deadline > now) continue;
        pending.delete(id);
        waiting.reject(new Error(`The cluster primary did not answer on ${channel} within ${timeoutMs} ms`));
      }
    },
    Math.max(10, timeoutMs / 4),
  ).unref();
  process.on('message', (message: unknown) => {
    if (!isOnChannel<Replies>(message, channel) || !Array.isArray(message.replies)) return;
    for (const reply of message.replies) {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.value as Answer);
    }
  });
  const flush = () => {
    const requests = queued;
    queued = [];
    const batch: Batch = { channel, requests };
    send(batch, undefined, undefined, (error: Error | null) => {
      if (!error) return;
      for (const { id } of requests) {
        pending.get(id)?.reject(error);
        pending.delete(id);
      }
    });
  };
  return (payload) =>
    new Promise<Answer>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject, deadline: Date.now() + timeoutMs });
      if (queued.length === 0) setImmediate(flush);
      queued.push({ id, payload });
    });
}

/** In the primary: answers every worker's `askPrimary` requests for `channel`. */
export function answerWorkers<Payload, Answer>(
  channel: string,
  answer: (payload: Payload) => Answer | Promise<Answer>,
): void {
  cluster.on('message', (worker, message: unknown) => {
    if (!isOnChannel<Batch>(message, channel) || !Array.isArray(message.requests)) return;
    const settled = message.requests.map(({ id, payload }) =>
      Promise.resolve()
        .then(() => answer(payload as Payload))
        .then(
          (value): Reply => ({ id, value }),
          (error: unknown): Reply => ({ id, error: error instanceof Error ? error.message : String(error) }),
        ),
    );
    void Promise.all(settled).then((replies) => {
      const sent: Replies = { channel, replies };
      // The callback keeps a worker that exited meanwhile from being an error: nobody waits for the answer.
      worker.send(sent, undefined, () => {});
    });
  });
}

function isOnChannel<T extends { channel: string }>(message: unknown, channel: string): message is T {
  return typeof message === 'object' && message !== null && (message as Partial<T>).channel === channel;
}

interface Relayed {
  channel: string;
  relay: unknown;
}

/** What the relay reports when a message could not be passed on. */
export interface RelayLog {
  warn(details: object, message: string): void;
}

/**
 * In the primary: passes every worker's `sendToAllWorkers` message for `channel` on to every worker. Nothing in
 * it may throw: a throw in a `message` handler would take the primary down, and every worker with it.
 */
export function relayToWorkers(channel: string, log: RelayLog): void {
  cluster.on('message', (_sender, message: unknown) => {
    if (!isOnChannel<Relayed>(message, channel) || !('relay' in message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      // A worker that exits meanwhile misses the message; it has nobody left to tell.
      try {
        if (worker?.isConnected()) worker.send(message, undefined, () => {});
      } catch (error) {
        log.warn({ err: error, channel }, 'a relayed message was not passed on to a worker');
      }
    }
  });
}

/**
 * In a worker: sends `payload` to every worker (this one included) through the primary's `relayToWorkers`, and
 * calls `receive` with every payload any worker sends on `channel`. Answers the function that sends, which never
 * throws (a message that cannot be sent is logged). A `receive` that throws is logged: a throw in a `message`
 * handler would take the worker down.
 */
export function sendToAllWorkers(
  channel: string,
  log: RelayLog,
  receive: (payload: unknown) => void,
): (payload: unknown) => void {
  if (!process.send) throw new Error('sendToAllWorkers runs in a worker forked by a node:cluster primary');
  const send = process.send.bind(process);
  process.on('message', (message: unknown) => {
    if (!isOnChannel<Relayed>(message, channel) || !('relay' in message)) return;
    try {
      receive(message.relay);
    } catch (error) {
      log.warn({ err: error, channel }, 'a relayed message could not be handled');
    }
  });
  const lost = (error: unknown) =>
    log.warn({ err: error, channel }, 'a message to the other workers was lost');
  return (payload) => {
    const message: Relayed = { channel, relay: payload };
    try {
      send(message, undefined, undefined, (error: Error | null) => error && lost(error));
    } catch (error) {
      lost(error);
    }
  };
}
