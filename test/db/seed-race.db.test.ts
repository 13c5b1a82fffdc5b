import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { typescriptArgs } from '../support/typescript-process.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A process of test/support/seed-when-told.ts; resolves once it is ready. */
async function seeder() {
  const child = spawn(process.execPath, typescriptArgs('test/support/seed-when-told.ts'), {
    env: { PATH: process.env.PATH, DATABASE_URL: database.url },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  while (!output.includes('ready\n')) {
    const [code] = await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
    if (typeof code === 'number') throw new Error(`seeder exited ${code} before it was ready`);
  }
  return {
    go: () => child.stdin.end('go\n'),
    seeded: async () => {
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      return (JSON.parse(output.split('\n').at(-2) ?? '') as { seeded: boolean }).seeded;
    },
  };
}

it('seeds the demo catalogue once when several processes start together on an empty store', async () => {
  const seeders = await Promise.all([seeder(), seeder(), seeder()]);
  for (const { go } of seeders) go();
  const seeded = await Promise.all(seeders.map(({ seeded }) => seeded()));
  expect(seeded.filter(Boolean)).toHaveLength(1);
  const { prisma } = database.db;
  expect(await prisma.category.count()).toBe(3);
  expect(await prisma.pet.count()).toBe(6);
  expect(await prisma.inventoryItem.aggregate({ _sum: { quantity: true } })).toEqual({
    _sum: { quantity: 15 },
  });
}, 60_000);
