import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepPeriodically } from '../../src/idempotency/sweep.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 60 * 60 * 1000;

describe('the sweep of expired idempotency records', () => {
  it('runs every interval, off the request path, and deletes only what expired', async () => {
    const { prisma } = database.db;
    const record = (key: string, expiresAt: number) => ({
      apiKeyId: 1n,
      key,
      fingerprint: 'f',
      status: 201,
      headers: '{}',
      body: null,
      createdAt: new Date(expiresAt - 24 * HOUR),
      expiresAt: new Date(expiresAt),
    });
    await prisma.idempotencyRecord.createMany({
      data: [record('expired', NOW - 1), record('expiring now', NOW), record('live', NOW + 1)],
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let swept = (_count: number) => {};
      const sweptOnce = new Promise<number>((resolve) => {
        swept = resolve;
      });
      const log = { info: (fields: { count: number }) => swept(fields.count), warn: vi.fn() };
      const stop = sweepPeriodically(prisma, { now: () => NOW, log, everyMs: HOUR });
      expect(await prisma.idempotencyRecord.count()).toBe(3);
      vi.advanceTimersByTime(HOUR);
      expect(await sweptOnce).toBe(2);
      stop();
      expect(log.warn).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
    const left = await prisma.idempotencyRecord.findMany();
    expect(left.map(({ key }) => key)).toEqual(['live']);
  });
});
