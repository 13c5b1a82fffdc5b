import { describe, expect, it } from 'vitest';
import { idleMemory } from '../../src/process/idle-memory.ts';

const MB = 1024 * 1024;

/** The watcher with a clock and a young generation the test moves; a collection brings it back to `shrinksTo`. */
function watched({ shrinksTo = 1 * MB } = {}) {
  let now = 0;
  let young = 32 * MB;
  let collections = 0;
  const watch = idleMemory({
    now: () => now,
    collect: () => {
      collections++;
      young = shrinksTo;
    },
    youngGenerationBytes: () => young,
  });
  return {
    watch,
    busySpell: () => {
      young = 128 * MB;
      watch.requestArrived();
    },
    wait: (ms: number) => {
      for (let waited = 0; waited < ms; waited += 1000) {
        now += 1000;
        watch.tick();
      }
    },
    collections: () => collections,
  };
}

describe('giving memory back once the gateway is idle', () => {
  it('collects nothing while requests keep coming, then once a second from five quiet seconds on, ten times', () => {
    const gateway = watched();
    gateway.busySpell();
    for (let second = 0; second < 30; second++) {
      gateway.wait(1000);
      gateway.watch.requestArrived();
    }
    expect(gateway.collections()).toBe(0);
    gateway.wait(4000);
    expect(gateway.collections()).toBe(0);
    gateway.wait(1000);
    expect(gateway.collections()).toBe(1);
    gateway.wait(60_000);
    expect(gateway.collections()).toBe(10);
  });

  it('collects nothing after quiet that followed no growth', () => {
    const gateway = watched();
    gateway.wait(60_000);
    expect(gateway.collections()).toBe(0);
  });

  it('stops after ten collections in one quiet spell when the young generation will not shrink, and tries again after the next request', () => {
    const gateway = watched({ shrinksTo: 128 * MB });
    gateway.busySpell();
    gateway.wait(60_000);
    expect(gateway.collections()).toBe(10);
    gateway.busySpell();
    gateway.wait(60_000);
    expect(gateway.collections()).toBe(20);
  });
});
