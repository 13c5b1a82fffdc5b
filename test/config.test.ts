import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { ConfigError } from '../src/config-error.ts';

describe('configuration', () => {
  it('has defaults that need nothing', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      database: { provider: 'sqlite', file: './data/petstore.db' },
    });
  });

  it('reads PostgreSQL from DATABASE_URL, with schema and pool size', () => {
    const { database } = loadConfig({
      DATABASE_URL: 'postgresql://u:secret@db:5432/store?schema=gw&connection_limit=4',
    });
    expect(database).toMatchObject({ provider: 'postgresql', schema: 'gw', poolSize: 4 });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc": must be a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT="70000": must be a whole number from 0 to 65535'],
    [{ HOST: '' }, 'HOST="": must not be empty'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x": DATABASE_URL "mysql://x" is neither file:'],
    [{ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' }, 'is not a plain identifier'],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never prints a database password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' })).toThrow(/u:\*\*\*@/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://u:secret@db/x?schema=a-b' })).not.toThrow(/secret/);
  });

  it('lists every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', HOST: '' })).toThrow(/HOST.*\n.*PORT|PORT.*\n.*HOST/);
  });
});
