import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Charge, CounterStore, WindowKind } from '../../src/ratelimit/counters/counter.ts';
import { MemoryCounterStore } from '../../src/ratelimit/counters/memory.ts';
import { freshSubject, openStore, REDIS_KEY_PREFIX, REDIS_URL, type StoreKind, TestClock } from './stores.ts';

const minute: WindowKind = { name: 'minute', seconds: 60 };
const day: WindowKind = { name: 'day', seconds: 86_400 };
const charge = (window: WindowKind, points: number, limit: number): Charge => ({ window, points, limit });

describe.each<StoreKind>(['memory', 'redis'])('counter store in %s', (kind) => {
  const clock = new TestClock();
  let stores: CounterStore[];
  let redis: Redis;
  beforeAll(async () => {
    // On Redis, two stores stand for two gateway processes sharing it.
    stores = await Promise.all([openStore(kind, clock), openStore(kind, clock)]);
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    redis.disconnect();
  });
  const store = () => stores[0] as CounterStore;
  const countOf = async (window: WindowKind, key: string) =>
    (await store().take(key, [charge(window, 0, 0)])).windows[0]?.count;

  /** Ends the key's current window: moves the memory clock past it, or lets the Redis counter expire. */
  async function endWindow(window: WindowKind, key: string) {
    if (kind === 'memory') return clock.advance(window.seconds * 1000);
    await redis.pexpire(`${REDIS_KEY_PREFIX}:${window.name}:${key}`, 1);
    await expect.poll(() => redis.exists(`${REDIS_KEY_PREFIX}:${window.name}:${key}`)).toBe(0);
  }

  it('takes every charge or none of them', async () => {
    const key = freshSubject();
    const first = await store().take(key, [charge(minute, 2, 3), charge(day, 2, 2)]);
    expect(first).toMatchObject({ taken: true, windows: [{ count: 2 }, { count: 2 }] });
    expect(first.windows[0]?.msLeft).toBeGreaterThan(59_000);
    expect(first.windows[1]?.msLeft).toBeGreaterThan(86_000_000);

    // The minute has room for one more; the day does not: neither counts it.
    const refused = await store().take(key, [charge(minute, 1, 3), charge(day, 1, 2)]);
    expect(refused).toMatchObject({ taken: false, windows: [{ count: 2 }, { count: 2 }] });
    expect(await store().take(key, [charge(minute, 1, 3)])).toMatchObject({
      taken: true,
      windows: [{ count: 3 }],
    });
  });

  it('reads with a charge of 0 points, opening no window', async () => {
    const key = freshSubject();
    const banned: WindowKind = { name: 'ban', seconds: 600 };
    expect(await store().take(key, [charge(banned, 0, 0)])).toEqual({
      taken: true,
      windows: [{ count: 0, msLeft: 0, id: 0 }],
    });
    await store().take(key, [charge(banned, 1, 1)]);
    expect(await store().take(key, [charge(banned, 0, 0)])).toMatchObject({
      taken: false,
      windows: [{ count: 1 }],
    });
  });

  it('gives points back to the window they came from only, and never below zero', async () => {
    const key = freshSubject();
    const { windows } = await store().take(key, [charge(minute, 3, 10)]);
    const paid = windows[0]?.id as number;
    expect(await store().giveBack(key, [{ window: minute, id: paid, points: 2 }])).toEqual([true]);
    expect(await countOf(minute, key)).toBe(1);
    expect(await store().giveBack(key, [{ window: minute, id: paid, points: 5 }])).toEqual([true]);
    expect(await countOf(minute, key)).toBe(0);

    await store().take(key, [charge(minute, 3, 10)]);
    await endWindow(minute, key);
    // Into an ended window: nothing, and no window opened below zero.
    expect(await store().giveBack(key, [{ window: minute, id: paid, points: 3 }])).toEqual([false]);
    expect(await countOf(minute, key)).toBe(0);
    // Into a newer window: nothing either.
    const newer = await store().take(key, [charge(minute, 2, 10)]);
    expect(newer.windows[0]?.id).not.toBe(paid);
    expect(await store().giveBack(key, [{ window: minute, id: paid, points: 2 }])).toEqual([false]);
    expect(await countOf(minute, key)).toBe(2);
  });

  it('takes exactly up to the limit of many concurrent calls, over every store sharing the counters', async () => {
    const key = freshSubject();
    const sharing = kind === 'redis' ? stores : [store()];
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sharing[i % sharing.length]?.take(key, [charge(minute, 1, 7)])),
    );
    expect(takes.filter((take) => take?.taken)).toHaveLength(7);
    expect(await countOf(minute, key)).toBe(7);
    if (kind === 'redis') {
      // One integer per key and window, expiring with it.
      expect(await redis.get(`${REDIS_KEY_PREFIX}:minute:${key}`)).toBe('7');
      expect(await redis.pttl(`${REDIS_KEY_PREFIX}:minute:${key}`)).toBeGreaterThan(59_000);
    }
  });
});

describe('counter store in memory', () => {
  it('answers at once, one counter per key and window, and sweeps ended windows', () => {
    const clock = new TestClock();
    const store = new MemoryCounterStore({ now: clock.now });
    let last = store.take('key:1', [charge(minute, 1, Number.MAX_SAFE_INTEGER)]);
    for (let i = 1; i < 100_000; i++)
      last = store.take('key:1', [charge(minute, 1, Number.MAX_SAFE_INTEGER)]);
    expect(last.windows[0]?.count).toBe(100_000);
    expect(store.keysHeld(minute)).toBe(1);

    for (let i = 0; i < 50; i++) store.take(`ip:10.0.0.${i}`, [charge(minute, 3, 10)]);
    expect(store.keysHeld(minute)).toBe(51);
    clock.advance(60_000);
    expect(store.take('ip:10.0.0.1', [charge(minute, 0, 0)]).windows[0]).toEqual({
      count: 0,
      msLeft: 0,
      id: 0,
    });
    store.take('ip:10.0.0.1', [charge(minute, 1, 10)]);
    expect(store.keysHeld(minute)).toBe(1);
  });
});
