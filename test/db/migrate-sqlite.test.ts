import Sqlite from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { createEmptyTestDatabase, type EmptyTestDatabase } from '../support/databases.ts';

let database: EmptyTestDatabase | undefined;

afterEach(async () => {
  await database?.drop();
});

// The shape of the step Prisma writes when a SQLite table must change in a way ALTER TABLE cannot: copy, drop,
// rename. Dropping "Pet" with foreign keys enforced would delete its inventory rows (ON DELETE CASCADE).
const redefinePet = {
  name: '99990101000000_redefine_pet',
  sql: `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Pet" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'available',
    "categoryId" BIGINT NOT NULL,
    CONSTRAINT "Pet_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Pet" ("id", "name", "status", "categoryId") SELECT "id", "name", "status", "categoryId" FROM "Pet";
DROP TABLE "Pet";
ALTER TABLE "new_Pet" RENAME TO "Pet";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
};

test('a SQLite migration that redefines a parent table keeps the rows of its child tables', async () => {
  database = await createEmptyTestDatabase();
  const { target, url } = database;
  if (target.provider !== 'sqlite') throw new Error('this test needs SQLite');
  await migrate(target);
  const db = await openDatabase(url);
  try {
    const category = await db.prisma.category.create({ data: { name: 'Dogs' } });
    await db.prisma.pet.create({ data: { name: 'Rex', categoryId: category.id, inventory: { create: {} } } });
  } finally {
    await db.close();
  }

  await migrate(target, { migrations: [...(await readMigrations('sqlite')), redefinePet] });

  const sqlite = new Sqlite(target.file, { readonly: true });
  try {
    expect(sqlite.prepare('SELECT "petId", quantity FROM "InventoryItem"').all()).toEqual([
      { petId: 1, quantity: 0 },
    ]);
  } finally {
    sqlite.close();
  }
});
