// The data the benchmark reads and writes: a migrated database with a catalogue big enough that reads by id
// spread over many rows, and an API key whose limits the run cannot reach.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config/database-url.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { REPO_ROOT } from './processes.ts';

const CATEGORIES = 100;
const PETS_PER_CATEGORY = 100;
/** Enough that placing orders for the whole run never runs out of stock. */
const STOCK = 1_000_000;
/** Per minute and per day: far above what one run sends (Prisma's Int is 32 bits). */
const KEY_LIMIT = 2_000_000_000;

export interface Catalogue {
  petIds: bigint[];
  categoryIds: bigint[];
}

/** Migrates an empty database and fills it: CATEGORIES categories of PETS_PER_CATEGORY pets, each in stock. */
export async function seedCatalogue(databaseUrl: string): Promise<Catalogue> {
  await migrate(parseDatabaseUrl(databaseUrl));
  const { prisma, close } = await openDatabase(databaseUrl);
  try {
    await prisma.category.createMany({
      data: Array.from({ length: CATEGORIES }, (_, i) => ({
        name: `Category ${i + 1}`,
        description: 'Benchmark',
      })),
    });
    const categoryIds = (
      await prisma.category.findMany({ select: { id: true }, orderBy: { id: 'asc' } })
    ).map(({ id }) => id);
    await prisma.pet.createMany({
      data: categoryIds.flatMap((categoryId) =>
        Array.from({ length: PETS_PER_CATEGORY }, (_, i) => ({
          name: `Pet ${categoryId}-${i + 1}`,
          categoryId,
        })),
      ),
    });
    const petIds = (await prisma.pet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map(
      ({ id }) => id,
    );
    await prisma.inventoryItem.createMany({ data: petIds.map((petId) => ({ petId, quantity: STOCK })) });
    return { petIds, categoryIds };
  } finally {
    await close();
  }
}

/**
 * An enterprise key created with the project's own CLI, or undefined (with the reason) while the CLI does not
 * exist yet: the run then goes without a key.
 */
export async function createBenchKey(databaseUrl: string): Promise<{ key?: string; note?: string }> {
  if (!existsSync(path.join(REPO_ROOT, 'src/keys/cli.ts'))) {
    return { note: 'no API key: src/keys/cli.ts does not exist yet, requests go without X-API-Key' };
  }
  const limit = String(KEY_LIMIT);
  const { stdout } = await promisify(execFile)(
    'npm',
    [
      'run',
      '--silent',
      'apikey',
      '--',
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      limit,
      '--per-day',
      limit,
      // The mixed row places and cancels orders and sets stock.
      '--scopes',
      'orders,catalog',
    ],
    { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  const key = stdout.trim().split('\n').at(-1);
  if (!key) throw new Error('`npm run apikey -- create` printed no key');
  return { key };
}

/** The same PostgreSQL server and database, in a new schema of its own. */
export function freshPostgresSchema(databaseUrl: string): { url: string; schema: string } {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), schema };
}

export async function dropPostgresSchema(databaseUrl: string, schema: string): Promise<void> {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider !== 'postgresql') throw new Error('not a PostgreSQL URL');
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
