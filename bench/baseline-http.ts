// What both baselines share: the routes of the questions the benchmark asks, on node:http with nothing in
// between (no key, no rate limit, no GraphQL), and BASELINE_WORKERS processes on one port (node:cluster), so
// that a table comparing N gateway workers has N baseline processes beside it.
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface PetRow {
  id: number | string;
  name: string;
  status: string;
  categoryId: number | string;
  categoryName: string;
}

/** One row of the nested question: a category and one of its first pets with its stock (none: no pets). */
export interface NestedRow {
  categoryId: number | string;
  categoryName: string;
  petId: number | string | null;
  petName: string | null;
  quantity: number | null;
  openOrders: number | null;
}

/** The store operations a baseline answers; each may be synchronous (better-sqlite3) or not (pg). */
export interface BaselineStore {
  petById(id: number): Promise<PetRow | undefined> | PetRow | undefined;
  petPage(categoryId: number, limit: number): Promise<PetRow[]> | PetRow[];
  /** The categories after `afterId`, `categories` of them, each with its first `pets` pets, in id order. */
  nested(afterId: number, categories: number, pets: number): Promise<NestedRow[]> | NestedRow[];
  placeOrder(petId: number, quantity: number): Promise<object | undefined> | object | undefined;
  cancelOrder(id: number): Promise<boolean> | boolean;
  setStock(petId: number, quantity: number): Promise<object | undefined> | object | undefined;
  close(): Promise<void> | void;
}

const pet = (row: PetRow) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  categoryId: row.categoryId,
  category: { id: row.categoryId, name: row.categoryName },
});

// The contract's inventory status (store/inventory.ts).
const status = (quantity: number, openOrders: number) =>
  quantity > 0 ? 'available' : openOrders > 0 ? 'pending' : 'sold';

/** The nested rows as the gateway's answer shapes them: categories, each with its pets and their stock. */
function nested(rows: NestedRow[]) {
  const categories = new Map<string, { id: NestedRow['categoryId']; name: string; pets: object[] }>();
  for (const row of rows) {
    const key = String(row.categoryId);
    let category = categories.get(key);
    if (!category) {
      category = { id: row.categoryId, name: row.categoryName, pets: [] };
      categories.set(key, category);
    }
    if (row.petId === null) continue;
    const quantity = row.quantity ?? 0;
    category.pets.push({
      id: row.petId,
      name: row.petName,
      inventory: { quantity, status: status(quantity, row.openOrders ?? 0) },
    });
  }
  return [...categories.values()];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req: IncomingMessage): Promise<Record<string, number | undefined>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function handle(store: BaselineStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const [, first, second, third] = url.pathname.split('/');
  if (first === 'pets' && second && req.method === 'GET') {
    const row = await store.petById(Number(second));
    return row ? send(res, 200, pet(row)) : send(res, 404, { code: 'NOT_FOUND' });
  }
  if (url.pathname === '/pets' && req.method === 'GET') {
    const rows = await store.petPage(
      Number(url.searchParams.get('categoryId')),
      Number(url.searchParams.get('limit') ?? 20),
    );
    return send(res, 200, rows.map(pet));
  }
  if (url.pathname === '/categories' && req.method === 'GET') {
    const number = (name: string) => Number(url.searchParams.get(name) ?? 0);
    return send(res, 200, nested(await store.nested(number('after'), number('first'), number('pets'))));
  }
  if (first === 'store' && second === 'orders') {
    if (!third && req.method === 'POST') {
      const { petId, quantity = 1 } = await readJson(req);
      const order = await store.placeOrder(Number(petId), quantity);
      return order ? send(res, 201, order) : send(res, 409, { code: 'OUT_OF_STOCK' });
    }
    if (third && req.method === 'DELETE') {
      // 200 with a body, not 204: autocannon stalls on keep-alive 204s (as GraphQL's cancelOrder, it answers the id).
      const id = Number(third);
      return (await store.cancelOrder(id)) ? send(res, 200, { id }) : send(res, 404, { code: 'NOT_FOUND' });
    }
  }
  if (first === 'store' && second === 'inventory' && third && req.method === 'PUT') {
    const { quantity = 0 } = await readJson(req);
    const item = await store.setStock(Number(third), quantity);
    return item ? send(res, 200, item) : send(res, 404, { code: 'NOT_FOUND' });
  }
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  send(res, 404, { code: 'NOT_FOUND' });
}

/** Serves on HOST:PORT; with BASELINE_WORKERS > 1 the primary only forks, and each worker opens the store. */
export function serveBaseline(openStore: () => BaselineStore): void {
  const workers = Number(process.env.BASELINE_WORKERS ?? 1);
  if (cluster.isPrimary && workers > 1) {
    for (let i = 0; i < workers; i++) cluster.fork();
    process.once('SIGTERM', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    });
    return;
  }
  const store = openStore();
  const server = createServer((req, res) => {
    handle(store, req, res).catch((error: unknown) =>
      send(res, 500, { code: 'INTERNAL', message: String(error) }),
    );
  });
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close(() => void store.close());
    server.closeIdleConnections();
  });
}
