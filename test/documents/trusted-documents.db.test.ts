import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHelpRequest, UsageError } from '../../src/cli/command-line.ts';
import { parseDocumentsCommand, runDocumentsCommand } from '../../src/documents/commands.ts';
import { setKeyPowers } from '../../src/keys/repository.ts';
import { startTestApp, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

const PETS = `query Pets($first: Int) { pets(first: $first) { edges { node { id name } } } }\n`;
const ORDER = 'mutation Order($petId: Int64!) { placeOrder(input: { petId: $petId }) { id quantity } }';
const CREATE_PET = 'mutation NewPet($input: NewPet!) { createPet(input: $input) { id } }';
const idOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const app = useTestApp({ env: { PLACE_ORDER_PER_MINUTE: '2' } });
let dir: string;
let pet: { id: number; categoryId: number };
const keys: Record<string, string> = {};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'documents-'));
  pet = await app.createPet({ name: 'Trusted' });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 100 }) { quantity } }`);
  keys.require = await createTestKey(app.prisma, 'business');
  keys.off = await createTestKey(app.prisma, 'business');
  keys.ordersOnly = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
  for (const [name, mode] of [
    ['require', 'require'],
    ['off', 'off'],
    ['ordersOnly', 'require'],
  ] as const) {
    const row = await app.prisma.apiKey.findFirstOrThrow({
      where: { prefix: (keys[name] ?? '').slice(0, 10) },
    });
    await setKeyPowers(app.prisma, row.id, { trustedDocuments: mode });
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const orders = () => app.prisma.order.count();

// The tests run in order: the first registers, through the CLI, the documents the others run.
describe('npm run documents', () => {
  it('adds a .graphql file and a persisted-query manifest, each document by the sha256 of its text', async () => {
    await writeFile(path.join(dir, 'pets.graphql'), PETS);
    const manifest = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: idOf(ORDER).slice('sha256:'.length), name: 'Order', type: 'mutation', body: ORDER },
        { id: idOf(CREATE_PET).slice('sha256:'.length), name: 'NewPet', type: 'mutation', body: CREATE_PET },
      ],
    };
    await writeFile(path.join(dir, 'persisted-manifest.json'), JSON.stringify(manifest));
    const env = { ...process.env, DATABASE_URL: app.database.url };
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'documents',
        '--',
        'add',
        path.join(dir, 'pets.graphql'),
        path.join(dir, 'persisted-manifest.json'),
      ],
      { env },
    );
    expect(stdout).toContain('3 added, 0 already registered.');
    expect(stdout).toContain(`${idOf(PETS)}  Pets`);
    expect(stdout).toContain(`${idOf(ORDER)}  Order`);

    const again = await runDocumentsCommand(
      parseDocumentsCommand(['add', path.join(dir, 'pets.graphql')]),
      app.prisma,
    );
    expect(again[0]).toBe('0 added, 1 already registered.');
    const listed = (await runDocumentsCommand({ command: 'list' }, app.prisma)).join('\n');
    for (const text of [PETS, ORDER, CREATE_PET]) expect(listed).toContain(idOf(text));
    expect(listed).not.toContain('placeOrder'); // the list shows names, not text
  });

  it('refuses files whose ids are not the sha256 of their text, or that do not parse, adding nothing', async () => {
    const before = await app.prisma.trustedDocument.count();
    const sha1Map = path.join(dir, 'sha1.json');
    await writeFile(
      sha1Map,
      JSON.stringify({ '3f786850e387550fdab836ed7e6dc881de23001b': '{ pets { edges { node { id } } } }' }),
    );
    const broken = path.join(dir, 'broken.graphql');
    await writeFile(broken, 'query { pets {');
    const fragmentsOnly = path.join(dir, 'fragments.graphql');
    await writeFile(fragmentsOnly, 'fragment F on Pet { id }');
    for (const file of [sha1Map, broken, fragmentsOnly]) {
      await expect(
        runDocumentsCommand({ command: 'add', files: [file] }, app.prisma),
        file,
      ).rejects.toThrow();
    }
    expect(await app.prisma.trustedDocument.count()).toBe(before);
    for (const argv of [
      ['add'],
      ['remove', 'abc'],
      ['remove', idOf('x').toUpperCase()],
      ['list', 'x'],
      ['drop'],
    ]) {
      expect(() => parseDocumentsCommand(argv), argv.join(' ')).toThrow(UsageError);
    }
    expect(isHelpRequest(['--help'])).toBe(true);
  });

  it('removes a document by id, and says so for an unknown one', async () => {
    const text = '{ categories(first: 1) { edges { node { id } } } }';
    await runDocumentsCommand({ command: 'add', files: [await fileWith('gone.graphql', text)] }, app.prisma);
    expect(await runDocumentsCommand(parseDocumentsCommand(['remove', idOf(text)]), app.prisma)).toEqual([
      expect.stringContaining(`Removed ${idOf(text)}`),
    ]);
    await expect(
      runDocumentsCommand(parseDocumentsCommand(['remove', idOf(text)]), app.prisma),
    ).rejects.toThrow('There is no document');
  });
});

async function fileWith(name: string, text: string) {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('a registered document', () => {
  it('runs by documentId over POST, as its text does', async () => {
    const byText = await app.postGraphQL({ query: PETS, variables: { first: 2 } }, { key: null });
    const byId = await app.postGraphQL({ documentId: idOf(PETS), variables: { first: 2 } }, { key: null });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byText.body);
    expect(byId.body.data.pets.edges.length).toBeGreaterThan(0);
  });

  it('runs by GET /graphql?documentId=...&variables=... for queries, and never for mutations', async () => {
    const answer = await app.get(
      `/graphql?${new URLSearchParams({ documentId: idOf(PETS), variables: JSON.stringify({ first: 1 }) })}`,
      { key: null, headers: { accept: 'application/json' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.pets.edges).toHaveLength(1);

    const before = await orders();
    const mutation = await app.get(
      `/graphql?${new URLSearchParams({ documentId: idOf(ORDER), variables: JSON.stringify({ petId: pet.id }) })}`,
      { key: app.apiKey ?? null, headers: { accept: 'application/json' } },
    );
    expect(mutation.status).toBe(405);
    expect(await orders()).toBe(before);
  });

  it('is counted by the rate limit like any request, an unknown id included', async () => {
    const key = await createTestKey(app.prisma, 'free');
    const remaining = async (send: () => Promise<{ headers: Headers }>) =>
      Number((await send()).headers.get('x-ratelimit-remaining'));
    const first = await remaining(() => app.postGraphQL({ documentId: idOf(PETS) }, { key: key ?? null }));
    expect(
      await remaining(() =>
        app.get(`/graphql?${new URLSearchParams({ documentId: idOf(PETS) })}`, {
          key: key ?? null,
          headers: { accept: 'application/json' },
        }),
      ),
    ).toBe(first - 1);
    expect(
      await remaining(() => app.postGraphQL({ documentId: idOf('nothing') }, { key: key ?? null })),
    ).toBe(first - 2);
    expect(await remaining(() => app.postGraphQL({ query: PETS }, { key: key ?? null }))).toBe(first - 3);
  });

  it("a stored mutation still meets placeOrder's per-field limit and the key's scopes", async () => {
    const key = await createTestKey(app.prisma, 'business');
    const place = () =>
      app.postGraphQL({ documentId: idOf(ORDER), variables: { petId: pet.id } }, { key: key ?? null });
    expect((await place()).status).toBe(200);
    expect((await place()).status).toBe(200);
    const before = await orders();
    const third = await place();
    expect(third.status).toBe(429);
    expect(third.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await orders()).toBe(before);

    const pets = await app.prisma.pet.count();
    const forbidden = await app.postGraphQL(
      { documentId: idOf(CREATE_PET), variables: { input: { name: 'No', categoryId: pet.categoryId } } },
      { key: keys.ordersOnly ?? null },
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'catalog',
    });
    expect(await app.prisma.pet.count()).toBe(pets);
  });
});

describe('trusted-documents modes', () => {
  it('require: a key so marked runs registered documents only; text is 400 DOCUMENT_NOT_TRUSTED and runs nothing', async () => {
    const before = await orders();
    const text = await app.postGraphQL(
      { query: ORDER, variables: { petId: pet.id } },
      { key: keys.require ?? null },
    );
    expect(text.status).toBe(400);
    expect(text.body.errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED', status: 400 });
    expect(text.body.data).toBeUndefined();
    const textGet = await app.get(`/graphql?${new URLSearchParams({ query: PETS })}`, {
      key: keys.require ?? null,
      headers: { accept: 'application/json' },
    });
    expect(textGet.status).toBe(400);
    expect(textGet.body.errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED' });
    expect(await orders()).toBe(before);

    const stored = await app.postGraphQL(
      { documentId: idOf(ORDER), variables: { petId: pet.id } },
      { key: keys.require ?? null },
    );
    expect(stored.status).toBe(200);
    expect(stored.body.data.placeOrder.quantity).toBe(1);
    expect(
      (
        await app.get(`/graphql?${new URLSearchParams({ documentId: idOf(PETS) })}`, {
          key: keys.require ?? null,
          headers: { accept: 'application/json' },
        })
      ).status,
    ).toBe(200);
  });

  it('require: in a batch, each entry is judged on its own, and each is counted', async () => {
    const first = await app.postGraphQL({ documentId: idOf(PETS) }, { key: keys.require ?? null });
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const batch = await app.postGraphQL(
      [{ documentId: idOf(PETS), variables: { first: 1 } }, { query: PETS }],
      { key: keys.require ?? null },
    );
    expect(batch.status).toBe(200);
    expect(batch.body[0].data.pets.edges).toHaveLength(1);
    expect(batch.body[1].errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED' });
    expect(Number(batch.headers.get('x-ratelimit-remaining'))).toBe(remaining - 2);
  });

  it('allow (the default): text and ids both run', async () => {
    expect((await app.postGraphQL({ query: PETS }, { key: app.apiKey ?? null })).status).toBe(200);
    expect((await app.postGraphQL({ documentId: idOf(PETS) }, { key: app.apiKey ?? null })).status).toBe(200);
    expect((await app.postGraphQL({ query: PETS }, { key: null })).status).toBe(200);
  });

  it('off: a key so marked sends text only', async () => {
    const byId = await app.postGraphQL({ documentId: idOf(PETS) }, { key: keys.off ?? null });
    expect(byId.status).toBe(400);
    expect(byId.body.errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED' });
    expect((await app.postGraphQL({ query: PETS }, { key: keys.off ?? null })).status).toBe(200);
  });

  it('an unknown documentId is 400 DOCUMENT_NOT_FOUND; a malformed one 400 VALIDATION_FAILED; neither runs', async () => {
    for (const key of [app.apiKey, keys.require]) {
      const unknown = await app.postGraphQL(
        { documentId: idOf('{ pets { edges { node { id } } } }') },
        { key: key ?? null },
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_FOUND', status: 400 });
      expect(unknown.body.errors[0].message).toContain('npm run documents -- add');
      for (const documentId of ['sha256:xyz', idOf(PETS).slice('sha256:'.length), 42]) {
        const malformed = await app.postGraphQL({ documentId }, { key: key ?? null });
        expect(malformed.status, String(documentId)).toBe(400);
        expect(malformed.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
    }
    const none = await app.postGraphQL({ variables: {} }, { key: app.apiKey ?? null });
    expect(none.status).toBe(400);
    expect(none.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('TRUSTED_DOCUMENTS=require applies to callers without a mode of their own; a key marked allow still sends text', async () => {
    const strict = await startTestApp({ env: { TRUSTED_DOCUMENTS: 'require' } });
    try {
      await runDocumentsCommand({ command: 'add', files: [path.join(dir, 'pets.graphql')] }, strict.prisma);
      const fetchIt = (body: unknown, key?: string) => strict.postGraphQL(body, { key: key ?? null });
      const anonymousText = await fetchIt({ query: PETS });
      expect(anonymousText.status).toBe(400);
      expect(anonymousText.body.errors[0].extensions.code).toBe('DOCUMENT_NOT_TRUSTED');
      expect((await fetchIt({ query: PETS }, strict.apiKey)).status).toBe(400);
      expect((await fetchIt({ documentId: idOf(PETS) })).status).toBe(200);
      const tool = await createTestKey(strict.prisma, 'business');
      const row = await strict.prisma.apiKey.findFirstOrThrow({ where: { prefix: tool.slice(0, 10) } });
      await setKeyPowers(strict.prisma, row.id, { trustedDocuments: 'allow' });
      expect((await fetchIt({ query: PETS }, tool)).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
