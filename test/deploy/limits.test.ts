import { describe, expect, it } from 'vitest';
import type { ServerStats } from '../../deploy/local-cluster.ts';
import { createApiKey } from '../../src/keys/repository.ts';
import { send } from '../support/node-http.ts';
import { useTestCluster } from './cluster.ts';

const count = <T>(items: T[], value: T) => items.filter((item) => item === value).length;

/** Answers (2xx and 4xx) each gateway gave between two readings of HAProxy's statistics. */
const answeredBetween = (before: ServerStats[], after: ServerStats[]) =>
  after.map(({ name, responses }) => {
    const earlier = before.find((server) => server.name === name)?.responses;
    return responses['2xx'] + responses['4xx'] - (earlier ? earlier['2xx'] + earlier['4xx'] : 0);
  });

describe('rate limits and stock through HAProxy, over three gateways sharing PostgreSQL and Redis', () => {
  // A Redis command slower than 500 ms (a stalled machine) is then refused with 503 instead of counted by
  // that gateway alone: what these tests count is the shared counters, never the fallback.
  const test = useTestCluster({ RATE_LIMIT_ON_REDIS_FAILURE: 'closed' });

  it("admits exactly a Free key's 60 a minute, although each gateway gets fewer than 60 of the requests", async () => {
    const { cluster } = test;
    const { key } = await createApiKey(test.database.db.prisma, { plan: 'free' });
    const before = await cluster.serverStats();
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        i % 2
          ? send(cluster.url, '/categories?limit=1', { key })
          : send(cluster.url, '/graphql', {
              method: 'POST',
              key,
              body: { query: '{ categories(first: 1) { edges { node { id } } } }' },
            }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 200)).toBe(60);
    expect(count(statuses, 429)).toBe(30);
    // Each gateway alone would have admitted all it got: only the shared counters make it 60.
    const perGateway = answeredBetween(before, await cluster.serverStats());
    expect(perGateway.reduce((sum, answered) => sum + answered, 0)).toBe(90);
    for (const answered of perGateway) expect(answered).toBeLessThan(60);
  });

  it('counts an anonymous client by the address HAProxy saw, whatever X-Forwarded-For it sends', async () => {
    const { cluster } = test;
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        send(cluster.url, '/categories?limit=1', {
          from: '127.0.0.2',
          headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 200)).toBe(60);
    expect(count(statuses, 429)).toBe(30);
    // Another client address has its own budget: HAProxy passes the client's address, not its own.
    const other = await send(cluster.url, '/categories?limit=1', { from: '127.0.0.3' });
    expect(other.status).toBe(200);
    const spent = await send(cluster.url, '/categories?limit=1', { from: '127.0.0.2' });
    expect(spent.status).toBe(429);
  });

  it('accepts exactly the stock of 40 concurrent orders, and refuses the rest', async () => {
    const { cluster, database } = test;
    const { prisma } = database.db;
    // PLACE_ORDER_PER_MINUTE is 10 per caller: four callers.
    const keys = await Promise.all(
      Array.from({ length: 4 }, async () => (await createApiKey(prisma, { plan: 'business' })).key),
    );
    const category = await prisma.category.create({ data: { name: 'Stock' } });
    const pet = await prisma.pet.create({ data: { name: 'Last ten', categoryId: category.id } });
    await prisma.inventoryItem.create({ data: { petId: pet.id, quantity: 10 } });
    const before = await cluster.serverStats();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(cluster.url, '/store/orders', {
          method: 'POST',
          key: keys[i % 4],
          body: { petId: Number(pet.id), quantity: 1 },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 201)).toBe(10);
    expect(count(statuses, 409)).toBe(30);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.code)).toEqual(
      Array(30).fill('OUT_OF_STOCK'),
    );
    for (const answered of answeredBetween(before, await cluster.serverStats())) {
      expect(answered).toBeGreaterThan(0);
    }
    expect(await prisma.inventoryItem.findUnique({ where: { petId: pet.id } })).toMatchObject({
      quantity: 0,
    });
    expect(await prisma.order.count({ where: { petId: pet.id } })).toBe(10);
  });

  // Last: it stops every gateway.
  it("answers with the Error object when no gateway is left: HAProxy's own 503", async () => {
    const { cluster } = test;
    for (const index of cluster.instances.keys()) await cluster.stopInstance(index, 'SIGKILL');
    for (const index of cluster.instances.keys()) await cluster.balancerSees(index, 'DOWN');
    const answer = await send(cluster.url, '/categories?limit=1');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      code: 'UNAVAILABLE',
      message: 'No gateway instance is available; retry shortly',
      status: 503,
    });
  });
});
