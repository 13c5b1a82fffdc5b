import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemoryChangeBus } from '../../src/events/bus.ts';
import { type InventoryChange, inventoryChange } from '../../src/events/change.ts';
import { ChangeFeed } from '../../src/events/feed.ts';

// Processes that commit one after the other can publish the other way round. The feed puts each row's
// changes back in version order; these tests publish out of order on purpose, which a real deployment does
// only now and then.

afterEach(() => vi.useRealTimers());

const change = (petId: number, version: number): InventoryChange =>
  inventoryChange({ petId: BigInt(petId), quantity: version, openOrders: 0, version });

function open(baseline: Record<string, number> = { 'inventory:1': 0 }, gapWaitMs = 1000) {
  const bus = openMemoryChangeBus({ info: () => {}, warn: () => {} });
  const feed = new ChangeFeed(bus, { gapWaitMs });
  const stream = feed.watch({
    accepts: (c): c is InventoryChange => c.kind === 'inventory',
    baseline: async () => new Map(Object.entries(baseline)),
  });
  const iterator = stream[Symbol.asyncIterator]();
  const seen: number[] = [];
  const reading = (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      seen.push(next.value.version);
    }
  })();
  // The stream listens once it is first read and its baseline is in.
  const started = new Promise((resolve) => setImmediate(resolve));
  return { bus, feed, seen, reading, started };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a subscription's changes", () => {
  it('come in version order per row, whatever order they were published in, each once', async () => {
    const { bus, feed, seen, started } = open({ 'inventory:1': 0, 'inventory:2': 5 });
    await started;
    bus.publish([change(1, 3), change(2, 7), change(1, 2), change(1, 2), change(2, 6), change(1, 1)]);
    bus.publish([change(1, 0), change(2, 5)]); // at or before the baseline: stale
    await settle();
    expect(seen).toEqual([6, 7, 1, 2, 3]);
    feed.end();
  });

  it('wait for a missing version only so long, then go on without it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bus, feed, seen, started } = open({ 'inventory:1': 0 }, 500);
    await started;
    bus.publish([change(1, 1), change(1, 3), change(1, 4)]);
    await settle();
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(499);
    await settle();
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(seen).toEqual([1, 3, 4]);
    // Version 2 arriving late is stale now.
    bus.publish([change(1, 2), change(1, 5)]);
    await settle();
    expect(seen).toEqual([1, 3, 4, 5]);
    feed.end();
  });

  it('end when the feed ends, and a stream opened after that ends at once', async () => {
    const { feed, reading, started } = open();
    await started;
    feed.end();
    await reading;
    expect(feed.openStreams).toBe(0);
    const late = open();
    late.feed.end();
    await late.reading;
  });
});
