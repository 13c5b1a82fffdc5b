// The PostgreSQL ceiling the gateway is measured against: node:pg with named (prepared) statements and the
// gateway's pool size, behind bench/baseline-http.ts. Env: BASELINE_DB (a DATABASE_URL as the gateway reads
// it: schema and connection_limit), HOST, PORT, BASELINE_WORKERS.
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config/database-url.ts';
import { type NestedRow, type PetRow, serveBaseline } from './baseline-http.ts';

const target = parseDatabaseUrl(process.env.BASELINE_DB ?? '');
if (target.provider !== 'postgresql') throw new Error('BASELINE_DB must be a PostgreSQL URL');

serveBaseline(() => {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: target.poolSize,
    options: `-c search_path="${target.schema}"`,
  });
  const columns = 'p.id, p.name, p.status, p."categoryId", c.name AS "categoryName"';
  const named = (name: string, text: string, values: unknown[]) => ({ name, text, values });
  const rows = async <Row extends pg.QueryResultRow>(query: pg.QueryConfig) =>
    (await pool.query<Row>(query)).rows;

  return {
    petById: async (id) =>
      (
        await rows<PetRow>(
          named(
            'pet_by_id',
            `SELECT ${columns} FROM "Pet" p JOIN "Category" c ON c.id = p."categoryId" WHERE p.id = $1`,
            [id],
          ),
        )
      )[0],
    petPage: (categoryId, limit) =>
      rows<PetRow>(
        named(
          'pet_page',
          `SELECT ${columns} FROM "Pet" p JOIN "Category" c ON c.id = p."categoryId"
           WHERE p."categoryId" = $1 ORDER BY p.id LIMIT $2`,
          [categoryId, limit],
        ),
      ),
    // One statement: each category's first pets through a lateral join on Pet(categoryId, id).
    nested: (afterId, categories, pets) =>
      rows<NestedRow>(
        named(
          'nested',
          `SELECT c.id AS "categoryId", c.name AS "categoryName", p.id AS "petId", p.name AS "petName",
                  i.quantity, i."openOrders"
           FROM (SELECT id, name FROM "Category" WHERE id > $1 ORDER BY id LIMIT $2) c
           LEFT JOIN LATERAL (SELECT id, name FROM "Pet" WHERE "categoryId" = c.id ORDER BY id LIMIT $3) p ON true
           LEFT JOIN "InventoryItem" i ON i."petId" = p.id
           ORDER BY c.id, p.id`,
          [afterId, categories, pets],
        ),
      ),
    placeOrder: async (petId, quantity) => {
      // One statement: the stock is taken and the order written together, or neither.
      const [order] = await rows(
        named(
          'place_order',
          `WITH taken AS (
             UPDATE "InventoryItem" SET quantity = quantity - $2, "openOrders" = "openOrders" + 1
             WHERE "petId" = $1 AND quantity >= $2 RETURNING "petId")
           INSERT INTO "Order" ("petId", quantity, complete, "createdAt")
           SELECT "petId", $2, false, now() FROM taken
           RETURNING id, "petId", quantity, "shipDate", complete`,
          [petId, quantity],
        ),
      );
      return order;
    },
    cancelOrder: async (id) =>
      (
        await rows(
          named(
            'cancel_order',
            `WITH gone AS (DELETE FROM "Order" WHERE id = $1 AND complete = false RETURNING "petId", quantity)
             UPDATE "InventoryItem" i SET quantity = i.quantity + gone.quantity, "openOrders" = i."openOrders" - 1
             FROM gone WHERE i."petId" = gone."petId" RETURNING i."petId"`,
            [id],
          ),
        )
      ).length > 0,
    setStock: async (petId, quantity) =>
      (
        await rows(
          named(
            'set_stock',
            `UPDATE "InventoryItem" SET quantity = $2 WHERE "petId" = $1 RETURNING "petId", quantity, "openOrders"`,
            [petId, quantity],
          ),
        )
      )[0],
    close: () => pool.end(),
  };
});
