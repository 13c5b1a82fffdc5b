// The vendored @whatwg-node/promise-helpers (vendor/promise-helpers/README.md): every package of the request path
// loads it, and it keeps the 1.x API's behaviour while answering synchronous work without promises.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const vendored = realpathSync(resolve(root, 'vendor/promise-helpers'));
const require = createRequire(resolve(root, 'package.json'));

/** The promise-helpers folder a package gets when it imports the module. */
function helpersSeenBy(dependent: string): string {
  const fromDependent = createRequire(require.resolve(dependent));
  return realpathSync(dirname(dirname(fromDependent.resolve('@whatwg-node/promise-helpers'))));
}

it.each([
  'graphql-yoga',
  '@envelop/core',
  '@whatwg-node/server',
  '@whatwg-node/node-fetch',
  '@graphql-tools/executor',
  '@graphql-tools/utils',
])('%s loads the vendored copy', (dependent) => {
  expect(helpersSeenBy(dependent)).toBe(vendored);
});

const helpers = await import(resolve(vendored, 'esm/index.js'));

describe('the vendored runtime', () => {
  it('answers synchronous work synchronously, and asynchronous work with a promise', async () => {
    expect(
      helpers.handleMaybePromise(
        () => 2,
        (n: number) => n * 3,
      ),
    ).toBe(6);
    const later = helpers.handleMaybePromise(
      () => Promise.resolve(2),
      (n: number) => n * 3,
    );
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(6);
    expect(helpers.mapMaybePromise(4, (n: number) => n + 1)).toBe(5);
    expect(
      helpers.handleMaybePromise(
        () => {
          throw new Error('input');
        },
        () => 'unreached',
        (error: Error) => `caught ${error.message}`,
      ),
    ).toBe('caught input');
  });

  it('iterates synchronous callbacks without a promise, collecting their results in order', () => {
    const results: number[] = [];
    expect(helpers.iterateAsync([1, 2, 3], (n: number) => n * 2, results)).toBeUndefined();
    expect(results).toEqual([2, 4, 6]);
  });

  it('waits for asynchronous callbacks one after the other, then goes on synchronously', async () => {
    const order: string[] = [];
    const results: number[] = [];
    const done = helpers.iterateAsync(
      [1, 2, 3],
      (n: number) => {
        order.push(`start ${n}`);
        if (n !== 2) return n;
        return new Promise((settle) => setTimeout(() => settle(n * 10), 5));
      },
      results,
    );
    expect(done).toBeInstanceOf(Promise);
    expect(order).toEqual(['start 1', 'start 2']);
    await done;
    expect(order).toEqual(['start 1', 'start 2', 'start 3']);
    expect(results).toEqual([1, 20, 3]);
  });

  it('stops where a callback ends early, synchronously or after a promise', async () => {
    const seen: number[] = [];
    helpers.iterateAsync([1, 2, 3], (n: number, endEarly: () => void) => {
      seen.push(n);
      if (n === 2) endEarly();
    });
    expect(seen).toEqual([1, 2]);
    const seenLater: number[] = [];
    await helpers.iterateAsync([1, 2, 3], async (n: number, endEarly: () => void) => {
      seenLater.push(n);
      if (n === 1) endEarly();
    });
    expect(seenLater).toEqual([1]);
  });

  it('passes on a callback that throws, or rejects, and goes no further', async () => {
    const seen: number[] = [];
    expect(() =>
      helpers.iterateAsync([1, 2], (n: number) => {
        seen.push(n);
        throw new Error(`no ${n}`);
      }),
    ).toThrow('no 1');
    await expect(
      helpers.iterateAsync([1, 2], async (n: number) => {
        seen.push(n);
        throw new Error(`no ${n}`);
      }),
    ).rejects.toThrow('no 1');
    expect(seen).toEqual([1, 1]);
  });

  it('takes the library’s own fake promises as synchronous answers', () => {
    const results: number[] = [];
    expect(helpers.iterateAsync([1, 2], (n: number) => helpers.fakePromise(n + 1), results)).toBeUndefined();
    expect(results).toEqual([2, 3]);
  });
});
