// Requests from a worker to the cluster primary over node:cluster's IPC channel, each answered once. A
// channel name keeps apart the users of the one IPC channel (rate-limit counters, metrics, prom-client).
import cluster from 'node:cluster';

interface Request {
  channel: string;
  id: number;
  payload: unknown;
}

type Reply = { channel: string; id: number } & ({ value: unknown } | { error: string });

/** In a worker: sends a payload to the primary's `answerWorkers` for `channel`; resolves with its answer. */
export function askPrimary<Payload, Answer>(channel: string): (payload: Payload) => Promise<Answer> {
  if (!process.send) throw new Error('askPrimary runs in a worker forked by a node:cluster primary');
  const send = process.send.bind(process);
  const pending = new Map<number, { resolve(value: Answer): void; reject(error: Error): void }>();
  let lastId = 0;
  process.on('message', (message: unknown) => {
    if (!isOnChannel<Reply>(message, channel)) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if ('error' in message) waiting?.reject(new Error(message.error));
    else waiting?.resolve(message.value as Answer);
  });
  return (payload) =>
    new Promise<Answer>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      const request: Request = { channel, id, payload };
      send(request, undefined, undefined, (error: Error | null) => {
        if (!error) return;
        pending.delete(id);
        reject(error);
      });
    });
}

/** In the primary: answers every worker's `askPrimary` requests for `channel`. */
export function answerWorkers<Payload, Answer>(
  channel: string,
  answer: (payload: Payload) => Answer | Promise<Answer>,
): void {
  cluster.on('message', (worker, message: unknown) => {
    if (!isOnChannel<Request>(message, channel)) return;
    const reply = (outcome: { value: Answer } | { error: string }) => {
      const sent: Reply = { channel, id: message.id, ...outcome };
      // The callback keeps a worker that exited meanwhile from being an error: nobody waits for the answer.
      worker.send(sent, undefined, () => {});
    };
    Promise.resolve()
      .then(() => answer(message.payload as Payload))
      .then(
        (value) => reply({ value }),
        (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

function isOnChannel<T extends { channel: string; id: number }>(
  message: unknown,
  channel: string,
): message is T {
  return typeof message === 'object' && message !== null && (message as Partial<T>).channel === channel;
}
