// The ceiling the gateway is measured against: node:http and prepared better-sqlite3 statements over the
// gateway's own SQLite file, with nothing in between (no key, no rate limit, no GraphQL).
// Env: BASELINE_DB (the SQLite file), HOST, PORT.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Sqlite from 'better-sqlite3';

const file = process.env.BASELINE_DB;
if (!file) throw new Error('BASELINE_DB must name the SQLite file');
const db = new Sqlite(file, { fileMustExist: true, timeout: 5000 });
// The gateway's own settings (src/db/client.ts).
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');

const petById = db.prepare('SELECT id, name, status, categoryId FROM Pet WHERE id = ?');

interface PageRow {
  id: number;
  name: string;
  status: string;
  categoryId: number;
  categoryName: string;
  quantity: number;
  inventoryStatus: string;
}
const petPage = db.prepare<[number, number], PageRow>(`
  SELECT p.id, p.name, p.status, p.categoryId, c.name AS categoryName, i.quantity,
         CASE WHEN i.quantity > 0 THEN 'available' WHEN i.openOrders > 0 THEN 'pending' ELSE 'sold' END AS inventoryStatus
  FROM Pet p JOIN Category c ON c.id = p.categoryId JOIN InventoryItem i ON i.petId = p.id
  WHERE p.categoryId = ? ORDER BY p.id LIMIT ?`);

const takeStock = db.prepare(
  'UPDATE InventoryItem SET quantity = quantity - ?, openOrders = openOrders + 1 WHERE petId = ? AND quantity >= ?',
);
const insertOrder = db.prepare(
  `INSERT INTO "Order" (petId, quantity, complete, createdAt) VALUES (?, ?, false, ?)
   RETURNING id, petId, quantity, shipDate, complete`,
);
const placeOrder = db.transaction((petId: number, quantity: number) => {
  if (takeStock.run(quantity, petId, quantity).changes === 0) return undefined;
  return insertOrder.get(petId, quantity, new Date().toISOString());
});

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req: IncomingMessage): Promise<{ petId?: number; quantity?: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const byId = /^\/pets\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && byId) {
    const pet = petById.get(Number(byId[1]));
    return pet ? send(res, 200, pet) : send(res, 404, { code: 'NOT_FOUND' });
  }
  if (req.method === 'GET' && url.pathname === '/pets') {
    const rows = petPage.all(
      Number(url.searchParams.get('categoryId')),
      Number(url.searchParams.get('limit') ?? 20),
    );
    return send(
      res,
      200,
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status,
        categoryId: row.categoryId,
        category: { id: row.categoryId, name: row.categoryName },
        inventory: { quantity: row.quantity, status: row.inventoryStatus },
      })),
    );
  }
  if (req.method === 'POST' && url.pathname === '/store/orders') {
    const { petId, quantity = 1 } = await readJson(req);
    const order = placeOrder(Number(petId), quantity);
    return order ? send(res, 201, order) : send(res, 409, { code: 'OUT_OF_STOCK' });
  }
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  send(res, 404, { code: 'NOT_FOUND' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => send(res, 500, { code: 'INTERNAL', message: String(error) }));
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => db.close());
  server.closeIdleConnections();
});
