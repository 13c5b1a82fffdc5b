// `npx tsx bench/statement-levers.ts [sqlite|postgresql]`: CPU per Prisma read of a pet with its category, in
// this process, with and without the kept prepared statements of src/db/statement-cache.ts, alternated twice.
// In-process CPU time holds on a busy machine where the HTTP rows do not. PostgreSQL: DATABASE_URL or the
// local test database, in a schema of its own (dropped after).
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config/database-url.ts';
import type { Db } from '../src/db/client.ts';
import { statementNames, withStatementCache } from '../src/db/statement-cache.ts';
import { PrismaClient as PostgresClient } from '../src/generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../src/generated/sqlite/client.ts';
import { dropPostgresSchema, freshPostgresSchema, seedCatalogue } from './database.ts';

const READS = 3000;
const CALLERS = 10;

async function cpuPerRead(prisma: Db, ids: bigint[]): Promise<number[]> {
  const caller = async () => {
    for (let i = 0; i < READS / CALLERS; i++) {
      const id = ids[Math.floor(Math.random() * ids.length)] as bigint;
      await prisma.pet.findUnique({
        where: { id },
        include: { category: { select: { id: true, name: true } } },
      });
    }
  };
  const round = async () => {
    const start = process.cpuUsage();
    await Promise.all(Array.from({ length: CALLERS }, caller));
    const spent = process.cpuUsage(start);
    return Math.round((spent.user + spent.system) / READS);
  };
  await round(); // warm-up
  return [await round(), await round(), await round()];
}

async function main(kind: string) {
  if (kind === 'postgresql') {
    const server = process.env.DATABASE_URL?.startsWith('postgres')
      ? process.env.DATABASE_URL
      : 'postgresql://root@127.0.0.1:5432/test';
    const { url, schema } = freshPostgresSchema(server);
    try {
      const { petIds } = await seedCatalogue(url);
      const target = parseDatabaseUrl(url);
      if (target.provider !== 'postgresql') throw new Error('not PostgreSQL');
      for (const named of [false, true, false, true]) {
        const pool = new pg.Pool({ connectionString: target.connectionString, max: target.poolSize });
        const adapter = new PrismaPg(pool, {
          schema: target.schema,
          ...(named && { statementNameGenerator: statementNames() }),
        });
        const prisma = new PostgresClient({ adapter }) as unknown as Db;
        console.log(
          `${named ? 'named' : 'unnamed'} statements: µs CPU per read`,
          await cpuPerRead(prisma, petIds),
        );
        await prisma.$disconnect();
        await pool.end();
      }
    } finally {
      await dropPostgresSchema(server, schema);
    }
    return;
  }
  const dir = await mkdtemp(path.join('/dev/shm', 'petstore-levers-'));
  try {
    const url = `file:${path.join(dir, 'bench.db')}`;
    const { petIds } = await seedCatalogue(url);
    for (const cached of [false, true, false, true]) {
      const factory = new PrismaBetterSqlite3({ url });
      const prisma = new SqliteClient({ adapter: cached ? withStatementCache(factory) : factory });
      console.log(
        `${cached ? 'kept' : 'prepared each time'}: µs CPU per read`,
        await cpuPerRead(prisma, petIds),
      );
      await prisma.$disconnect();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main(process.argv[2] ?? 'sqlite');
