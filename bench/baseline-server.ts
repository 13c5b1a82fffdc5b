// The SQLite ceiling the gateway is measured against: prepared better-sqlite3 statements over the gateway's own
// SQLite file, behind bench/baseline-http.ts. Env: BASELINE_DB (the SQLite file), HOST, PORT, BASELINE_WORKERS.
import Sqlite from 'better-sqlite3';
import { type NestedRow, type PetRow, serveBaseline } from './baseline-http.ts';

const file = process.env.BASELINE_DB;
if (!file) throw new Error('BASELINE_DB must name the SQLite file');

serveBaseline(() => {
  const db = new Sqlite(file, { fileMustExist: true, timeout: 5000 });
  // The gateway's own settings (src/db/client.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');

  const columns = 'p.id, p.name, p.status, p.categoryId, c.name AS categoryName';
  const petById = db.prepare<[number], PetRow>(
    `SELECT ${columns} FROM Pet p JOIN Category c ON c.id = p.categoryId WHERE p.id = ?`,
  );
  const petPage = db.prepare<[number, number], PetRow>(
    `SELECT ${columns} FROM Pet p JOIN Category c ON c.id = p.categoryId WHERE p.categoryId = ? ORDER BY p.id LIMIT ?`,
  );
  const categoriesAfter = db.prepare<[number, number], { id: number; name: string }>(
    'SELECT id, name FROM Category WHERE id > ? ORDER BY id LIMIT ?',
  );
  const petsOf = db.prepare<[number, number], NestedRow>(
    `SELECT p.categoryId, '' AS categoryName, p.id AS petId, p.name AS petName, i.quantity, i.openOrders
     FROM Pet p JOIN InventoryItem i ON i.petId = p.id WHERE p.categoryId = ? ORDER BY p.id LIMIT ?`,
  );
  const takeStock = db.prepare(
    'UPDATE InventoryItem SET quantity = quantity - ?, openOrders = openOrders + 1 WHERE petId = ? AND quantity >= ?',
  );
  const insertOrder = db.prepare(
    `INSERT INTO "Order" (petId, quantity, complete, createdAt) VALUES (?, ?, false, ?)
     RETURNING id, petId, quantity, shipDate, complete`,
  );
  const deleteOrder = db.prepare<[number], { petId: number; quantity: number }>(
    'DELETE FROM "Order" WHERE id = ? AND complete = false RETURNING petId, quantity',
  );
  const giveBack = db.prepare(
    'UPDATE InventoryItem SET quantity = quantity + ?, openOrders = openOrders - 1 WHERE petId = ?',
  );
  const setStock = db.prepare<[number, number]>(
    'UPDATE InventoryItem SET quantity = ? WHERE petId = ? RETURNING petId, quantity, openOrders',
  );
  const placeOrder = db.transaction((petId: number, quantity: number) => {
    if (takeStock.run(quantity, petId, quantity).changes === 0) return undefined;
    return insertOrder.get(petId, quantity, new Date().toISOString()) as object;
  });
  const cancelOrder = db.transaction((id: number) => {
    const order = deleteOrder.get(id);
    if (order) giveBack.run(order.quantity, order.petId);
    return order !== undefined;
  });
  return {
    petById: (id) => petById.get(id),
    petPage: (categoryId, limit) => petPage.all(categoryId, limit),
    nested: (afterId, categories, pets) =>
      categoriesAfter.all(afterId, categories).flatMap((category) => {
        const rows = petsOf.all(category.id, pets).map((row) => ({ ...row, categoryName: category.name }));
        const none = { petId: null, petName: null, quantity: null, openOrders: null };
        return rows.length ? rows : [{ categoryId: category.id, categoryName: category.name, ...none }];
      }),
    placeOrder,
    cancelOrder,
    setStock: (petId, quantity) => setStock.get(quantity, petId) as object | undefined,
    close: () => void db.close(),
  };
});
