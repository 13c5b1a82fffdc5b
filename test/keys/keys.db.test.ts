import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command-line.ts';
import { hashApiKey } from '../../src/keys/api-key.ts';
import { parseApiKeyCommand } from '../../src/keys/commands.ts';
import { createKeyLookup } from '../../src/keys/lookup.ts';
import { createApiKey, revokeApiKey } from '../../src/keys/repository.ts';
import { useKeyCommands } from './key-commands.ts';

const queries: string[] = [];
const { database, run, lookUp } = useKeyCommands({ onQuery: (sql) => queries.push(sql) });

describe('API keys', () => {
  it('are random psk_ keys, stored only as their SHA-256 hash and a short prefix', async () => {
    const { record, key } = await createApiKey(database.db.prisma, { plan: 'pro', name: 'Shop' });
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    const row = await database.db.prisma.apiKey.findUniqueOrThrow({ where: { id: record.id } });
    expect(row).toMatchObject({ plan: 'pro', name: 'Shop', hash: hashApiKey(key), prefix: key.slice(0, 10) });
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(key);
    expect((await createApiKey(database.db.prisma, { plan: 'pro' })).key).not.toBe(key);
  });

  it('are looked up by hash, cached for the TTL (revocation included), with malformed values never queried', async () => {
    let clock = 1_000;
    const now = () => clock;
    const lookup = createKeyLookup(database.db.prisma, { ttlMs: 5_000, maxEntries: 100, now });
    const { record, key } = await createApiKey(database.db.prisma, {
      plan: 'enterprise',
      limits: { perMinute: 7, perDay: 70 },
    });
    const active = {
      id: record.id,
      plan: 'enterprise',
      limits: { perMinute: 7, perDay: 70 },
      maxSubscriptions: null,
      scopes: ['read', 'orders'],
      trustedDocuments: null,
    };
    queries.length = 0;
    const answers = await Promise.all([lookup(key), lookup(key), lookup(key)]);
    expect(answers).toEqual(Array(3).fill(active));
    expect(queries).toHaveLength(1);
    // Once known, the answer comes at once, not as a promise: every request with a key waits on it.
    expect(lookup(key)).toEqual(active);

    expect(await lookup('psk_short')).toBeNull();
    expect(await lookup(`${key}x`)).toBeNull();
    expect(queries).toHaveLength(1);

    await revokeApiKey(database.db.prisma, record.id);
    queries.length = 0;
    clock += 4_999;
    expect(lookup(key)).toEqual(active); // still cached, for the whole TTL
    expect(queries).toHaveLength(0);
    clock += 2;
    expect(await lookup(key)).toBeNull();
    expect(queries).toHaveLength(1);
  });

  it('are never cached with a TTL of 0', async () => {
    const lookup = createKeyLookup(database.db.prisma, { ttlMs: 0, maxEntries: 100 });
    const { key } = await createApiKey(database.db.prisma, { plan: 'free' });
    queries.length = 0;
    await lookup(key);
    await lookup(key);
    expect(queries).toHaveLength(2);
  });

  it('keep the cache bounded, dropping the oldest entry first', async () => {
    const lookup = createKeyLookup(database.db.prisma, { ttlMs: 60_000, maxEntries: 2 });
    const keys = await Promise.all([1, 2, 3].map(() => createApiKey(database.db.prisma, { plan: 'free' })));
    for (const { key } of keys) await lookup(key);
    queries.length = 0;
    await lookup(keys[2]?.key ?? '');
    await lookup(keys[1]?.key ?? '');
    expect(queries).toHaveLength(0);
    await lookup(keys[0]?.key ?? '');
    expect(queries).toHaveLength(1);
  });
});

describe('apikey commands', () => {
  it('create an enterprise key with its own limits, and list keys without the key itself', async () => {
    const created = await run(
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '100',
      '--per-day',
      '5000',
      '--name',
      'Acme',
    );
    const key = created.at(-1) ?? '';
    expect(key).toMatch(/^psk_/);
    const listing = (await run('list')).join('\n');
    expect(listing).toMatch(/Acme\s+psk_\S{6}…\s+enterprise\s+100\/minute, 5000\/day/);
    expect(listing).not.toContain(key);
  });

  it('give an enterprise key its own cap of open subscriptions with --max-subscriptions, shown by list', async () => {
    const enterprise = ['create', '--plan', 'enterprise', '--per-minute', '100', '--per-day', '5000'];
    const capped = await run(...enterprise, '--name', 'Capped', '--max-subscriptions', '3');
    expect(capped[0]).toContain('(enterprise: 100/minute, 5000/day, 3 open subscriptions;');
    expect(await lookUp(capped.at(-1) ?? '')).toMatchObject({ plan: 'enterprise', maxSubscriptions: 3 });
    // Without the flag: null, the gateway's configured Enterprise cap (MAX_SUBSCRIPTIONS), whatever it is then.
    const uncapped = await run(...enterprise, '--name', 'Uncapped');
    expect(uncapped[0]).toContain('200 open subscriptions (the configured cap)');
    expect(await lookUp(uncapped.at(-1) ?? '')).toMatchObject({ plan: 'enterprise', maxSubscriptions: null });
    await run('create', '--plan', 'pro', '--name', 'Shop');

    const listing = (await run('list')).join('\n');
    expect(listing).toMatch(/LIMITS\s+SUBSCRIPTIONS\s+SCOPES/);
    expect(listing).toMatch(/Capped\s+psk_\S{6}…\s+enterprise\s+100\/minute, 5000\/day\s+3\s+read,orders/);
    expect(listing).toMatch(
      /Uncapped\s+psk_\S{6}…\s+enterprise\s+100\/minute, 5000\/day\s+200 \(configured\)\s/,
    );
    expect(listing).toMatch(/Shop\s+psk_\S{6}…\s+pro\s+300\/minute, 10000\/day\s+10\s+read,orders/);
  });

  it('refuse --max-subscriptions for the other plans and out of range, creating nothing', async () => {
    const before = await database.db.prisma.apiKey.findMany();
    for (const plan of ['free', 'pro', 'business']) {
      expect(() => parseApiKeyCommand(['create', '--plan', plan, '--max-subscriptions', '5'])).toThrow(
        new UsageError(
          `--max-subscriptions is for enterprise keys; ${plan} keys have the plan's cap (MAX_SUBSCRIPTIONS)`,
        ),
      );
    }
    const enterprise = ['create', '--plan', 'enterprise', '--per-minute', '100', '--per-day', '5000'];
    for (const value of ['0', '-1', '1.5', 'x', '', '2147483648']) {
      expect(() => parseApiKeyCommand([...enterprise, `--max-subscriptions=${value}`]), value).toThrow(
        `--max-subscriptions must be a whole number from 1 to 2147483647 (got ${value})`,
      );
    }
    // Its neighbours have the same range (the columns are 32-bit integers).
    expect(() =>
      parseApiKeyCommand(['create', '--plan', 'enterprise', '--per-minute', '2147483648', '--per-day', '5']),
    ).toThrow(UsageError);
    expect(() => parseApiKeyCommand(['set', '1', '--max-subscriptions', '3'])).toThrow(UsageError);
    expect(await database.db.prisma.apiKey.findMany()).toEqual(before);
  });

  it('refuse wrong command lines with a usage error and create nothing', async () => {
    const before = await database.db.prisma.apiKey.count();
    const wrong = [
      ['create', '--plan', 'enterprise', '--per-minute', '100'],
      ['create', '--plan', 'free', '--per-minute', '100', '--per-day', '1000'],
      ['create', '--plan', 'gold'],
      ['create'],
      ['create', '--plan', 'enterprise', '--per-minute', '0', '--per-day', '5'],
      ['create', '--plan', 'pro', '--name', ' '],
      ['revoke', 'abc'],
      ['rotate'],
      [],
    ];
    for (const argv of wrong) expect(() => parseApiKeyCommand(argv), argv.join(' ')).toThrow(UsageError);
    expect(await database.db.prisma.apiKey.count()).toBe(before);
  });

  it('revoke a key once, and say so for an unknown id', async () => {
    const { record } = await createApiKey(database.db.prisma, { plan: 'free' });
    expect(await run('revoke', String(record.id))).toEqual([
      expect.stringMatching(`Revoked API key ${record.id}`),
    ]);
    expect(await run('revoke', String(record.id))).toEqual([expect.stringMatching('already revoked')]);
    await expect(run('revoke', '999999')).rejects.toThrow('There is no API key 999999');
  });
});

describe('npm run --silent apikey', () => {
  it('prints the new key alone on the last line, and exits 2 on a usage error', async () => {
    const env = { ...process.env, DATABASE_URL: database.url };
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'apikey', '--', 'create', '--plan', 'free'],
      {
        env,
      },
    );
    const key = stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(await createKeyLookup(database.db.prisma, { ttlMs: 0, maxEntries: 1 })(key)).toMatchObject({
      plan: 'free',
    });

    const failed = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'apikey', '--', 'create', '--plan', 'gold'],
      {
        env,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--plan must be one of') });

    const before = await database.db.prisma.apiKey.count();
    const capped = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'apikey', '--', 'create', '--plan', 'pro', '--max-subscriptions', '5'],
      { env },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(capped).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--max-subscriptions is for enterprise keys; pro keys have'),
    });
    expect(await database.db.prisma.apiKey.count()).toBe(before);
  });
});
