import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command-line.ts';
import { openDatabase } from '../../src/db/client.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { parseApiKeyCommand } from '../../src/keys/commands.ts';
import { createEmptyTestDatabase } from '../support/databases.ts';
import { useKeyCommands } from './key-commands.ts';

const { database, run, lookUp } = useKeyCommands();

describe('apikey scopes', () => {
  it('gives new keys read,orders unless --scopes says otherwise (read always included)', async () => {
    const plain = (await run('create', '--plan', 'free')).at(-1) ?? '';
    expect(await lookUp(plain)).toMatchObject({ scopes: ['read', 'orders'], trustedDocuments: null });
    const shop = (await run('create', '--plan', 'pro', '--scopes', 'orders,catalog')).at(-1) ?? '';
    expect(await lookUp(shop)).toMatchObject({ scopes: ['read', 'orders', 'catalog'] });
    const frontend = await run(
      'create',
      '--plan',
      'pro',
      '--scopes',
      'read',
      '--trusted-documents',
      'require',
    );
    expect(frontend[0]).toContain('scopes read, trusted documents require');
    expect(await lookUp(frontend.at(-1) ?? '')).toMatchObject({
      scopes: ['read'],
      trustedDocuments: 'require',
    });
  });

  it('change with set, and show in list', async () => {
    const [created] = await run('create', '--plan', 'pro', '--name', 'Changing');
    const id = /API key (\d+)/.exec(created ?? '')?.[1] ?? '';
    expect(await run('set', id, '--scopes', 'admin', '--trusted-documents', 'allow')).toEqual([
      expect.stringContaining(`API key ${id} now has scopes read,admin, trusted documents allow`),
    ]);
    const listing = (await run('list')).join('\n');
    expect(listing).toMatch(/SCOPES\s+TRUSTED DOCUMENTS/);
    expect(listing).toMatch(
      /Changing\s+psk_\S{6}…\s+pro\s+300\/minute, 10000\/day\s+10\s+read,admin\s+allow/,
    );
    await run('set', id, '--trusted-documents', 'default');
    expect((await run('list')).join('\n')).toMatch(/Changing.*read,admin\s+default/);
    await expect(run('set', '999999', '--scopes', 'read')).rejects.toThrow('There is no API key 999999');
  });

  it('refuse unknown scopes and modes with a usage error, changing nothing', async () => {
    const before = await database.db.prisma.apiKey.findMany();
    const wrong = [
      ['create', '--plan', 'free', '--scopes', 'orders,root'],
      ['create', '--plan', 'free', '--trusted-documents', 'always'],
      ['set', '1'],
      ['set', '1', '--plan', 'pro'],
      ['set', 'x', '--scopes', 'read'],
      ['revoke', '1', '--scopes', 'read'],
    ];
    for (const argv of wrong) expect(() => parseApiKeyCommand(argv), argv.join(' ')).toThrow(UsageError);
    expect(await database.db.prisma.apiKey.findMany()).toEqual(before);
  });

  it('npm run apikey -- create --scopes prints a key with those scopes', async () => {
    const env = { ...process.env, DATABASE_URL: database.url };
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'apikey', '--', 'create', '--plan', 'free', '--scopes', 'orders,catalog'],
      { env },
    );
    const key = stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(await lookUp(key)).toMatchObject({ plan: 'free', scopes: ['read', 'orders', 'catalog'] });
  });
});

describe('the scopes migration', () => {
  it('gives keys that existed before it every scope, their old powers', async () => {
    const provider = process.env.TEST_DB === 'postgresql' ? 'postgresql' : 'sqlite';
    const migrations = await readMigrations(provider);
    const at = migrations.findIndex(({ name }) => name.endsWith('_key_scopes_trusted_documents'));
    expect(at).toBeGreaterThan(0);
    const empty = await createEmptyTestDatabase();
    try {
      await migrate(empty.target, { migrations: migrations.slice(0, at) });
      const db = await openDatabase(empty.url);
      try {
        // Raw SQL on PostgreSQL does not follow the URL's schema: name it.
        const schema = new URL(empty.url).searchParams.get('schema');
        const table = schema ? `"${schema}"."ApiKey"` : '"ApiKey"';
        await db.prisma.$executeRawUnsafe(
          `INSERT INTO ${table} ("prefix", "hash", "plan") VALUES ('psk_old', 'old-hash', 'free')`,
        );
        await migrate(empty.target);
        const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { hash: 'old-hash' } });
        expect(key).toMatchObject({ scopes: 'read,orders,catalog,admin', trustedDocuments: null });
        const created = await db.prisma.apiKey.create({
          data: { prefix: 'psk_new', hash: 'new-hash', plan: 'free' },
        });
        expect(created.scopes).toBe('read,orders');
      } finally {
        await db.close();
      }
    } finally {
      await empty.drop();
    }
  });
});
