import { afterAll, beforeAll } from 'vitest';

/**
 * What `start` makes before the tests of the file (or of the describe block this is called in), read through
 * the object returned, and `stop`ped after them: one line where each file had its own let, beforeAll and
 * afterAll.
 */
export function perFile<T extends object>(start: () => Promise<T>, stop?: (value: T) => Promise<unknown>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  afterAll(async () => {
    if (value && stop) await stop(value);
  });
  return new Proxy({} as T, {
    get(_, name) {
      if (value === undefined) throw new Error(`read before it was started (beforeAll): ${String(name)}`);
      const field = Reflect.get(value, name);
      // A method runs on the object itself (a class's private fields are not the proxy's).
      return typeof field === 'function' ? field.bind(value) : field;
    },
  });
}
