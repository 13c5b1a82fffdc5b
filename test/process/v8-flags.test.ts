import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { typescriptArgs } from '../support/typescript-process.ts';

// The gateway keeps Prisma's query compiler (WebAssembly) on V8's baseline compiler (src/process/v8-flags.ts):
// optimizing it took about 40 MB more of C-allocated memory, which stayed resident after it was freed.
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase({}, 'sqlite');
});
afterAll(() => test.drop());

const peakMallocMb = async (...args: string[]) => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...typescriptArgs('test/support/query-compiler-memory.ts'),
    test.url,
    ...args,
  ]);
  return Number(stdout.trim()) / 2 ** 20;
};

it("Prisma's query compiler, kept busy, takes V8 under 30 MB of C-allocated memory", async () => {
  expect(await peakMallocMb()).toBeLessThan(30);
});
