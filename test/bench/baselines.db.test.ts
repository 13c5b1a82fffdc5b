import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanUp } from '../../bench/cleanup.ts';
import { type Catalogue, seedCatalogue } from '../../bench/database.ts';
import type { Request, Workload } from '../../bench/load.ts';
import { type ServerProcess, startBaseline } from '../../bench/processes.ts';
import { benchScenarios, type Scenario } from '../../bench/scenarios.ts';
import { createEmptyTestDatabase, type EmptyTestDatabase } from '../support/databases.ts';
import { overHttp, requestHelpers } from '../support/requests.ts';

// The raw baseline of `npm run bench` answers the same questions as the gateway's rows, on this database, and
// the mixed row's writes on it really place and cancel orders. Nothing here is timed.
let database: EmptyTestDatabase;
let catalogue: Catalogue;
let baseline: ServerProcess;
let scenarios: Scenario[];

beforeAll(async () => {
  database = await createEmptyTestDatabase();
  catalogue = await seedCatalogue(database.url);
  baseline = await startBaseline(database.url);
  scenarios = benchScenarios(catalogue);
}, 120_000);
afterAll(async () => {
  await cleanUp();
  await database.drop();
});

/** A request of the workload, to the baseline server: its body (JSON text) as it is, and no key. */
const send = ({ method, path, body }: Request) =>
  requestHelpers(overHttp(baseline.url)).send(method, path, { body });
const scenario = (part: string) => scenarios.find((s) => s.name.includes(part)) as Scenario;

it('seeds more pets than the response cache holds, in full pages of 100', () => {
  expect(catalogue.petIds.length).toBeGreaterThanOrEqual(10_000);
  expect(catalogue.petIds.length / catalogue.categoryIds.length).toBe(100);
});

it('answers a pet by id with its category name, and a page of 100 with theirs', async () => {
  const byId = await send(scenario('pet(id)').baseline.next());
  expect(byId.status).toBe(200);
  expect(JSON.parse(byId.text)).toMatchObject({
    name: expect.any(String),
    category: { name: /^Category \d+$/ },
  });
  const page = await send(scenario('page of 100').baseline.next());
  const pets = JSON.parse(page.text) as { category: { name: string } }[];
  expect(pets).toHaveLength(100);
  expect(new Set(pets.map((pet) => pet.category.name)).size).toBe(1);
});

it('answers the nested row: 10 categories after the cursor, each with its first 20 pets and their stock', async () => {
  const nested = scenario('10 categories');
  const request = nested.baseline.next();
  const after = Number(new URL(request.path, 'http://x').searchParams.get('after'));
  const categories = JSON.parse((await send(request)).text) as {
    id: number;
    pets: { id: number; inventory: { quantity: number; status: string } }[];
  }[];
  // PostgreSQL's raw server passes ids on as pg reads int8: as strings.
  expect(categories.map((c) => Number(c.id))).toEqual(
    catalogue.categoryIds
      .filter((id) => id > after)
      .slice(0, 10)
      .map(Number),
  );
  for (const category of categories) {
    expect(category.pets).toHaveLength(20);
    expect(category.pets[0]?.inventory).toMatchObject({ quantity: expect.any(Number), status: 'available' });
  }
  // The gateway's side asks the same: its cursor names the same category.
  const body = JSON.parse(nested.gateway.next().body ?? '{}');
  expect(body.query).toContain('categories(first: 10, after: $after)');
});

/** Draws from the workload until it asks for `method`, sends it, and hands the response back to it. */
async function drawAndSend(workload: Workload, method: Request['method'], path: RegExp) {
  for (let draws = 0; draws < 10_000; draws++) {
    const request = workload.next();
    if (request.method !== method || !path.test(request.path)) continue;
    const response = await send(request);
    workload.onResponse?.(response.status, response.text);
    return { request, response };
  }
  throw new Error(`the workload never asked for ${method} ${path}`);
}

it("places orders in the mixed row and cancels the ones it placed, on the baseline's store", async () => {
  const mixed = scenario('mixed').baseline;
  const placed = await drawAndSend(mixed, 'POST', /^\/store\/orders$/);
  expect(placed.response.status).toBe(201);
  const orderId = JSON.parse(placed.response.text).id;
  const cancelled = await drawAndSend(mixed, 'DELETE', /^\/store\/orders\/\d+$/);
  expect(cancelled.request.path).toBe(`/store/orders/${orderId}`);
  expect(cancelled.response.status).toBe(200);
  // Cancelled once: the order is gone.
  expect((await send(cancelled.request)).status).toBe(404);
  const stock = await drawAndSend(mixed, 'PUT', /^\/store\/inventory\/\d+$/);
  expect(stock.response.status).toBe(200);
});
