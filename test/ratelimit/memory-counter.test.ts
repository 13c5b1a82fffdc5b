import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { MemoryCounter } from '../../src/ratelimit/memory-counter.ts';

describe('in-process counter', () => {
  it('answers at once, one counter per key and window, whatever the number of requests', () => {
    const counter = new MemoryCounter({ name: 'minute', points: 0, windowSeconds: 60 });
    let state = counter.penalty('key:1');
    for (let i = 1; i < 100_000; i++) state = counter.penalty('key:1');
    expect(state).toMatchObject({ consumedPoints: 100_000 });
    expect(state.msBeforeNext).toBeGreaterThan(59_000);
    expect(counter.size).toBe(1);
    expect(counter.reward('key:1', 2)).toMatchObject({ consumedPoints: 99_998 });
  });

  it('starts a new window when one ends, drops ended windows, and refunds nothing into an ended window', async () => {
    const counter = new MemoryCounter({ name: 'minute', points: 0, windowSeconds: 0.05 });
    for (let i = 0; i < 50; i++) counter.penalty(`ip:10.0.0.${i}`, 3);
    expect(counter.size).toBe(50);
    await sleep(80);
    expect(counter.get('ip:10.0.0.1')).toBeNull();
    expect(counter.reward('ip:10.0.0.1', 3)).toMatchObject({ consumedPoints: 0 });
    expect(counter.penalty('ip:10.0.0.1')).toMatchObject({ consumedPoints: 1 });
    expect(counter.size).toBe(1);
  });

  it('throws the state past its points and, the first time, blocks the key for blockSeconds', () => {
    const counter = new MemoryCounter({ name: 'refusals', points: 2, windowSeconds: 60, blockSeconds: 600 });
    expect(counter.consume('key:1')).toMatchObject({ consumedPoints: 1 });
    expect(counter.consume('key:1')).toMatchObject({ consumedPoints: 2 });
    let thrown: unknown;
    try {
      counter.consume('key:1');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RateLimiterRes);
    expect((thrown as RateLimiterRes).consumedPoints).toBe(3);
    expect((thrown as RateLimiterRes).msBeforeNext).toBeGreaterThan(599_000);
    expect(counter.get('key:1')?.msBeforeNext).toBeGreaterThan(599_000);
    expect(() => counter.consume('key:2')).not.toThrow();
  });
});
