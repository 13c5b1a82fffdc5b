import { createHash } from 'node:crypto';
import {
  ApolloClient,
  ApolloLink,
  CombinedGraphQLErrors,
  type DocumentNode,
  gql,
  HttpLink,
  InMemoryCache,
} from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { ClientError, GraphQLClient } from 'graphql-request';
import { createClient as createSseClient } from 'graphql-sse';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDocuments } from '../../src/documents/repository.ts';
import { setKeyPowers } from '../../src/keys/repository.ts';
import { useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

// The GraphQL clients people use, against a started gateway over HTTP: what each sends, and what it makes of the
// answers. Apollo's persisted-queries link sends `extensions.persistedQuery.sha256Hash` first, and the text only
// when told PERSISTED_QUERY_NOT_FOUND; PERSISTED_QUERY_NOT_SUPPORTED makes it stop hashing.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const app = useTestApp({ http: true });
let pet: { id: number; name: string };
const keys = { allow: '', off: '', require: '' };
beforeAll(async () => {
  pet = await app.createPet({ name: 'Client' });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 50 }) { quantity } }`);
  for (const mode of ['allow', 'off', 'require'] as const) {
    keys[mode] = await createTestKey(app.prisma, 'business');
    const row = await app.prisma.apiKey.findFirstOrThrow({ where: { prefix: keys[mode].slice(0, 10) } });
    await setKeyPowers(app.prisma, row.id, { trustedDocuments: mode });
  }
});

interface Sent {
  method: string;
  query?: string;
  hash?: string;
}

/** Apollo Client 4 with the persisted-queries link, recording what each request carried. */
function apollo(key: string, options: { useGETForHashedQueries?: boolean } = {}) {
  const sent: Sent[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
    const extensions = body?.extensions ?? JSON.parse(url.searchParams.get('extensions') ?? 'null');
    sent.push({
      method: init?.method ?? 'GET',
      query: body?.query ?? url.searchParams.get('query') ?? undefined,
      hash: extensions?.persistedQuery?.sha256Hash,
    });
    return fetch(input, init);
  };
  const client = new ApolloClient({
    link: ApolloLink.from([
      new PersistedQueryLink({ sha256, ...options }),
      new HttpLink({ uri: `${app.url}/graphql`, fetch: recording, headers: { 'x-api-key': key } }),
    ]),
    cache: new InMemoryCache(),
  });
  return { client, sent };
}

const codesOf = (error: unknown) =>
  CombinedGraphQLErrors.is(error) ? error.errors.map((e) => e.extensions?.code) : [String(error)];

/** A query `name` of the pet of id `$id`, selecting `fields` of it. */
const petQuery = (name: string, fields: string) =>
  gql(`query ${name}($id: Int64!) { pets(ids: [$id]) { edges { node { ${fields} } } } }`);

const STOCK = petQuery('Stock', 'id name inventory { quantity }');
const SET_STOCK = gql`
  mutation SetStock($id: Int64!, $quantity: Int!) {
    updateInventory(petId: $id, input: { quantity: $quantity }) {
      quantity
    }
  }
`;

async function stockOf(id: number): Promise<number> {
  const data = await app.ok(`{ pets(ids: [${id}]) { edges { node { inventory { quantity } } } } }`);
  return (data as { pets: { edges: { node: { inventory: { quantity: number } } }[] } }).pets.edges[0]?.node
    .inventory.quantity as number;
}

async function run(client: ApolloClient, query: DocumentNode, variables: Record<string, unknown>) {
  const isMutation = query.definitions.some(
    (d) => d.kind === 'OperationDefinition' && d.operation === 'mutation',
  );
  return isMutation
    ? client.mutate({ mutation: query, variables, errorPolicy: 'all' })
    : client.query({ query, variables, fetchPolicy: 'network-only', errorPolicy: 'all' });
}

describe("Apollo Client's persisted-queries link", () => {
  it('with an allow key: the hash, PERSISTED_QUERY_NOT_FOUND, the text with it; from then on the hash alone', async () => {
    const first = apollo(keys.allow);
    const result = await run(first.client, STOCK, { id: pet.id });
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({
      pets: { edges: [{ node: { name: 'Client', inventory: { quantity: 50 } } }] },
    });
    expect(first.sent.map(({ query, hash }) => [query !== undefined, hash !== undefined])).toEqual([
      [false, true],
      [true, true],
    ]);

    const second = apollo(keys.allow);
    expect((await run(second.client, STOCK, { id: pet.id })).data).toEqual(result.data);
    expect(second.sent).toEqual([{ method: 'POST', query: undefined, hash: first.sent[0]?.hash }]);

    const byGet = apollo(keys.allow, { useGETForHashedQueries: true });
    expect((await run(byGet.client, STOCK, { id: pet.id })).data).toEqual(result.data);
    expect(byGet.sent).toEqual([{ method: 'GET', query: undefined, hash: first.sent[0]?.hash }]);
  });

  it('with an off key: PERSISTED_QUERY_NOT_SUPPORTED, and the link sends text without a hash from then on', async () => {
    const { client, sent } = apollo(keys.off);
    expect((await run(client, STOCK, { id: pet.id })).error).toBeUndefined();
    expect((await run(client, STOCK, { id: pet.id })).error).toBeUndefined();
    expect(sent.map(({ query, hash }) => [query !== undefined, hash !== undefined])).toEqual([
      [false, true],
      [true, false],
      [true, false],
    ]);
  });

  it('with a require key: a registered document runs by its hash; any other is DOCUMENT_NOT_TRUSTED and changes nothing', async () => {
    // What the link hashes is the text Apollo Client prints (with __typename added): register what it sent.
    const NAMES = petQuery('Names', 'name');
    const recorder = apollo(keys.allow);
    await run(recorder.client, NAMES, { id: pet.id });
    await addDocuments(app.prisma, [recorder.sent[1]?.query as string]);

    const registered = apollo(keys.require);
    const names = await run(registered.client, NAMES, { id: pet.id });
    expect(names.error).toBeUndefined();
    expect(names.data).toMatchObject({ pets: { edges: [{ node: { name: 'Client' } }] } });
    expect(registered.sent).toHaveLength(1);

    const unregistered = apollo(keys.require);
    const refused = await run(unregistered.client, SET_STOCK, { id: pet.id, quantity: 7 });
    expect(codesOf(refused.error)).toEqual(['DOCUMENT_NOT_TRUSTED']);
    expect(unregistered.sent).toHaveLength(2);
    expect(await stockOf(pet.id)).toBe(50);
  });

  it('surfaces the Error object of a refused write, and keeps one normalized Pet by __typename and id', async () => {
    const { client } = apollo(keys.allow);
    const missing = await run(client, SET_STOCK, { id: 99_999_999, quantity: 1 });
    expect(codesOf(missing.error)).toEqual(['NOT_FOUND']);
    await run(client, STOCK, { id: pet.id });
    expect(client.cache.identify({ __typename: 'Pet', id: String(pet.id) })).toBe(`Pet:${pet.id}`);
    expect(client.cache.extract()).toHaveProperty(`Pet:${pet.id}.name`, 'Client');
  });
});

describe('the persisted-query hash sent by hand', () => {
  const QUERY = '{ pets(first: 1) { edges { node { id } } } }';

  it('takes the hash with or without sha256:, and refuses a text whose hash is not its own without keeping it', async () => {
    const text = `query Prefixed { pets(first: 1) { edges { node { id } } } }`;
    const hash = sha256(text);
    const persistedQuery = (sha256Hash: string) => ({
      extensions: { persistedQuery: { version: 1, sha256Hash } },
    });

    const wrong = await app.postGraphQL({ query: QUERY, ...persistedQuery(hash) }, { key: keys.allow });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    const notKept = await app.postGraphQL(persistedQuery(hash), { key: keys.allow });
    expect(notKept.body.errors[0].extensions).toMatchObject({
      code: 'PERSISTED_QUERY_NOT_FOUND',
      status: 400,
    });

    expect(
      (await app.postGraphQL({ query: text, ...persistedQuery(`sha256:${hash}`) }, { key: keys.allow }))
        .status,
    ).toBe(200);
    for (const sent of [hash, `sha256:${hash}`]) {
      const again = await app.postGraphQL(persistedQuery(sent), { key: keys.allow });
      expect(again.status).toBe(200);
      expect(again.body.data.pets.edges).toHaveLength(1);
    }
    for (const malformed of ['', 'abc', hash.toUpperCase(), `sha1:${hash}`]) {
      const refused = await app.postGraphQL(persistedQuery(malformed), { key: keys.allow });
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
    const version2 = await app.postGraphQL(
      { extensions: { persistedQuery: { version: 2, sha256Hash: hash } } },
      { key: keys.allow },
    );
    expect(version2.body.errors[0].extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_SUPPORTED' });
  });

  it("never lets an allow caller's automatic document run for a require caller", async () => {
    const text = 'query OnlyAutomatic { pets(first: 1) { edges { node { id } } } }';
    const hash = sha256(text);
    const persistedQuery = { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } };
    expect((await app.postGraphQL({ query: text, ...persistedQuery }, { key: keys.allow })).status).toBe(200);
    expect((await app.postGraphQL(persistedQuery, { key: keys.allow })).status).toBe(200);
    const strict = await app.postGraphQL(persistedQuery, { key: keys.require });
    expect(strict.body.errors[0].extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    const withText = await app.postGraphQL({ query: text, ...persistedQuery }, { key: keys.require });
    expect(withText.body.errors[0].extensions).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED' });
  });
});

describe('urql', () => {
  it('queries, writes, and reads the Error object from a CombinedError', async () => {
    const client = new Client({
      url: `${app.url}/graphql`,
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: { headers: { 'x-api-key': app.apiKey } },
    });
    const read = await client.query(STOCK, { id: pet.id }).toPromise();
    expect(read.data.pets.edges[0].node.name).toBe('Client');
    const write = await client.mutation(SET_STOCK, { id: pet.id, quantity: 40 }).toPromise();
    expect(write.data.updateInventory.quantity).toBe(40);
    const refused = await client.mutation(SET_STOCK, { id: pet.id, quantity: -1 }).toPromise();
    expect(refused.error?.graphQLErrors[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(await stockOf(pet.id)).toBe(40);
  });
});

describe('graphql-request', () => {
  it('queries, writes, and throws a ClientError carrying the Error object', async () => {
    const client = new GraphQLClient(`${app.url}/graphql`, { headers: { 'x-api-key': app.apiKey } });
    const read = await client.request<{ pets: { edges: { node: { name: string } }[] } }>(STOCK, {
      id: pet.id,
    });
    expect(read.pets.edges[0]?.node.name).toBe('Client');
    const write = await client.request<{ updateInventory: { quantity: number } }>(SET_STOCK, {
      id: pet.id,
      quantity: 30,
    });
    expect(write.updateInventory.quantity).toBe(30);
    const refused = await client.request(SET_STOCK, { id: pet.id, quantity: -1 }).catch((error) => error);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).response.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await stockOf(pet.id)).toBe(30);
  });
});

describe('the graphql-sse client', () => {
  it('receives the committed changes of a subscription, in order, ', async () => {
    let connected: () => void = () => {};
    const isConnected = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const client = createSseClient({
      url: `${app.url}/graphql`,
      headers: { 'x-api-key': app.apiKey },
      on: { connected: () => connected() },
    });
    try {
      const events = client.iterate<{ inventoryChanged: { quantity: number } }>({
        query: `subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`,
      });
      const seen: number[] = [];
      const received = (async () => {
        for await (const event of events) {
          seen.push(event.data?.inventoryChanged.quantity as number);
          if (seen.length === 2) break;
        }
      })();
      // The gateway answers the stream's headers once the subscription is open: from then on each write is an event.
      await isConnected;
      for (const quantity of [21, 22]) {
        await app.ok(
          `mutation { updateInventory(petId: ${pet.id}, input: { quantity: ${quantity} }) { quantity } }`,
        );
      }
      await received;
      expect(seen).toEqual([21, 22]);
    } finally {
      client.dispose();
    }
  });
});
