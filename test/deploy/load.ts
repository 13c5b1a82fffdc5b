// Traffic through the balancer while gateways restart or die: `concurrency` clients on kept-alive connections,
// each sending one request after the other, by turns a REST read (GET), a GraphQL read (POST) and an order
// (POST /store/orders). Two of three are POSTs, which HAProxy never sends twice: a connection the gateway
// drops under one of them fails it, where a GET would be retried on another gateway.
import { Agent, request } from 'node:http';

export interface Failure {
  method: string;
  path: string;
  /** When the request was sent and when it failed, in epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** The 5xx status, or the client's error code (a connection closed without an answer). */
  outcome: string;
  /** The 5xx answer's body, which says who gave it (the gateway's or HAProxy's Error object). */
  body?: string;
}

export interface LoadReport {
  sent: number;
  /** Answers by status, and failures without one by error code. */
  outcomes: Record<string, number>;
  failures: Failure[];
  /** The orders answered 201, by id. */
  acceptedOrders: string[];
  /** Orders that failed (a 5xx, or no answer): placed or not, the client cannot tell. */
  failedOrders: number;
}

interface Answer {
  status: number;
  body: string;
}

export function startLoad(
  url: string,
  { key, petIds, concurrency }: { key: string; petIds: bigint[]; concurrency: number },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const report: LoadReport = { sent: 0, outcomes: {}, failures: [], acceptedOrders: [], failedOrders: 0 };
  const waiting = new Set<{ count: number; wake: () => void }>();
  let running = true;

  function send(method: string, path: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((done, fail) => {
      const req = request(`${url}${path}`, {
        method,
        agent,
        headers: { 'x-api-key': key, ...(payload && { 'content-type': 'application/json' }) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end(payload);
    });
  }

  async function client(offset: number) {
    for (let turn = offset; running; turn++) {
      const petId = petIds[turn % petIds.length] as bigint;
      const [method, path, body] =
        turn % 3 === 0
          ? ['GET', `/pets/${petId}`]
          : turn % 3 === 1
            ? ['POST', '/graphql', { query: `{ inventoryItem(petId: ${petId}) { quantity } }` }]
            : ['POST', '/store/orders', { petId: Number(petId), quantity: 1 }];
      const startedAt = Date.now();
      report.sent += 1;
      const outcome = await send(method, path, body).then(
        (answer) => answer,
        (error: NodeJS.ErrnoException) => error.code ?? error.message,
      );
      const label = typeof outcome === 'string' ? outcome : String(outcome.status);
      report.outcomes[label] = (report.outcomes[label] ?? 0) + 1;
      if (typeof outcome === 'string' || outcome.status >= 500) {
        const body = typeof outcome === 'string' ? undefined : outcome.body.slice(0, 300);
        report.failures.push({ method, path, startedAt, endedAt: Date.now(), outcome: label, body });
        if (path === '/store/orders') report.failedOrders += 1;
      } else if (outcome.status === 201) {
        report.acceptedOrders.push(String(JSON.parse(outcome.body).id));
      }
      for (const waiter of waiting) {
        if (report.sent >= waiter.count) {
          waiting.delete(waiter);
          waiter.wake();
        }
      }
    }
  }

  const clients = Array.from({ length: concurrency }, (_, i) => client(i));
  return {
    /** Resolves once `count` requests in all have been sent. */
    sent: (count: number) =>
      new Promise<void>((wake) => {
        if (report.sent >= count) wake();
        else waiting.add({ count, wake });
      }),
    /** Lets every client finish its request in flight, then reports. */
    stop: async (): Promise<LoadReport> => {
      running = false;
      await Promise.all(clients);
      agent.destroy();
      return report;
    },
  };
}
