// Measures what never-reading subscribers cost the gateway (docs/subscriptions.md, "Slow subscribers"): its
// resident memory and the writes' latency during a write flood, with no subscriber, then with 50 streams whose
// clients never read (each event about 60 KB, so that the socket buffers fill at once). One gateway process on
// SQLite, run as `npm start` runs it (its heap flags), from the TypeScript sources:
//   npx tsx bench/slow-subscribers.ts

import { createTestDatabase } from '../test/support/databases.ts';
import { createTestKey } from '../test/support/keys.ts';
import { BULKY, flood, openStalledStream } from '../test/support/stalled-stream.ts';
import { runWithCleanup } from './cleanup.ts';
import { startGateway } from './processes.ts';
import { rssDuring, rssMb } from './rss.ts';

const STALLED = 50;
const REQUESTS = 40; // of 150 changes each

async function floodOnce(url: string, key: string, petId: number, from: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let r = 0; r < REQUESTS; r++) {
    const started = performance.now();
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(flood(petId, from + r * 150)),
    });
    const results = (await response.json()) as { errors?: unknown }[];
    if (response.status !== 200 || results.some((result) => result.errors)) {
      throw new Error(`a write failed: ${response.status}`);
    }
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const summary = (latencies: number[]) =>
  `median ${latencies[Math.floor(latencies.length / 2)]?.toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms per request of 150 writes`;

await runWithCleanup(async () => {
  const database = await createTestDatabase({}, 'sqlite');
  const key = await createTestKey(database.db.prisma, 'business'); // 50 open subscriptions
  const gateway = await startGateway(database.url, { main: 'src/main.ts', env: { LOG_LEVEL: 'warn' } });
  const category = await database.db.prisma.category.create({ data: { name: 'Flooded' } });
  const pet = await database.db.prisma.pet.create({
    data: { name: 'Flooded', categoryId: category.id, inventory: { create: { quantity: 0 } } },
  });
  const petId = Number(pet.id);
  console.log(`idle: ${rssMb(gateway.pid).toFixed(0)} MB`);

  let quiet: number[] = [];
  const alone = await rssDuring(
    gateway.pid,
    floodOnce(gateway.url, key, petId, 1).then((l) => {
      quiet = l;
    }),
    200,
  );
  console.log(`flood, no subscriber: peak ${alone.peakMb.toFixed(0)} MB; ${summary(quiet)}`);

  const stalled = [];
  for (let i = 0; i < STALLED; i++) stalled.push(await openStalledStream(gateway.url, BULKY(petId), { key }));
  console.log(`${STALLED} stalled streams open: ${rssMb(gateway.pid).toFixed(0)} MB`);
  let loaded: number[] = [];
  const withStalled = await rssDuring(
    gateway.pid,
    floodOnce(gateway.url, key, petId, 1 + REQUESTS * 150).then((l) => {
      loaded = l;
    }),
    200,
  );
  const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
  const ended = /^petstore_subscription_slow_consumers_total (\d+)$/m.exec(metrics)?.[1];
  console.log(
    `flood, ${STALLED} never-reading streams: peak ${withStalled.peakMb.toFixed(0)} MB; ${summary(loaded)}; ${ended} ended SLOW_CONSUMER`,
  );
  for (const stream of stalled) stream.destroy();
  await gateway.stop();
  await database.drop();
});
