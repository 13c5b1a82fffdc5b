import { expect, it } from 'vitest';
import { createApiKey } from '../../src/keys/repository.ts';
import { lockTable, postForParts } from '../support/deferred.ts';
import { useTestCluster } from './cluster.ts';

// HAProxy in front (the shipped configuration) passes a deferred answer's parts on as they come: the first part
// reaches the client while the deferred fields still wait on a locked table.

const test = useTestCluster();

it('passes the first part of a deferred answer through HAProxy before the deferred work is done', async () => {
  const { key } = await createApiKey(test.database.db.prisma, { plan: 'pro' });
  const prisma = test.database.db.prisma;
  const pet = await prisma.pet.create({
    data: {
      name: 'Proxied',
      category: { create: { name: 'Proxied' } },
      inventory: { create: { quantity: 2 } },
    },
  });
  const schema = new URL(test.database.url).searchParams.get('schema') as string;
  const lock = await lockTable(schema, 'InventoryItem');
  try {
    const parts = await postForParts(
      test.cluster.url,
      `{ pets(ids: [${pet.id}]) { edges { node { name ... @defer { inventory { quantity } } } } } }`,
      { 'x-api-key': key },
    );
    expect((await parts.next()).value?.body).toEqual({
      data: { pets: { edges: [{ node: { name: 'Proxied' } }] } },
      hasNext: true,
    });
    await lock.release();
    expect((await parts.next()).value?.body).toMatchObject({
      incremental: [{ data: { inventory: { quantity: 2 } } }],
    });
  } finally {
    await lock.release();
  }
});
