import { expect } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { listen } from '../../src/http/listener.ts';
import { createPipeline } from '../../src/http/pipeline.ts';
import type { Logger } from '../../src/observability/logger.ts';
import { createTestDatabase } from './databases.ts';
import { injectInto } from './inject.ts';
import { createTestKey } from './keys.ts';
import { perFile } from './per-file.ts';
import { type Fetch, requestHelpers } from './requests.ts';

export type { Answer, GraphQLResponse, SendOptions } from './requests.ts';

/**
 * The whole gateway on a fresh database (TEST_DB picks SQLite or PostgreSQL). Requests (`fetch`, `graphql`) go
 * to the pipeline's node:http handler in-process, without a port; with `http: true` it is served over real HTTP
 * on a free loopback port (`url`), for tests whose subject is HTTP itself: connections, compression, streamed
 * responses, what a browser or another process sends. Requests carry a Business-plan API key unless told
 * otherwise.
 */
export async function startTestApp(
  options: {
    /** Serve on a loopback port; `url` is only there then. */
    http?: boolean;
    env?: NodeJS.ProcessEnv;
    onQuery?: (sql: string) => void;
    now?: () => number;
    /** The pipeline's logger; by default the one LOG_LEVEL makes, on stdout. */
    logger?: Logger;
  } = {},
) {
  const database = await createTestDatabase({ onQuery: options.onQuery });
  // The per-field placeOrder limit is the rate-limit tests' business; here it would only get in the way.
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    PORT: '0',
    PLACE_ORDER_PER_MINUTE: '100000',
    ...options.env,
  });
  const pipeline = await createPipeline({
    config,
    db: database.db,
    now: options.now,
    logger: options.logger,
  });
  const http = options.http ? await listen(pipeline.handle, '127.0.0.1', 0) : undefined;
  const apiKey = await createTestKey(database.db.prisma, 'business');
  const prisma = database.db.prisma;

  /** A request to `path` as fetch would send it, answered over the port or in-process. */
  const request: Fetch = http
    ? (path, init) => fetch(`${http.url}${path}`, init)
    : injectInto(pipeline.handle);

  const { send, get, post, postGraphQL, graphql } = requestHelpers(request, apiKey);

  /** Runs an operation that must succeed and returns its data. */
  // biome-ignore lint/suspicious/noExplicitAny: see GraphQLResponse
  async function ok(query: string, variables?: Record<string, unknown>): Promise<any> {
    const { body } = await graphql(query, variables);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  }

  /** Runs an operation that must fail and returns its first error as {message, code, status}. */
  async function fails(query: string, variables?: Record<string, unknown>) {
    const { body } = await graphql(query, variables);
    expect(body.errors?.length, JSON.stringify(body)).toBeGreaterThan(0);
    const [error] = body.errors ?? [];
    return { message: error?.message ?? '', ...error?.extensions } as {
      message: string;
      code: string;
      status: number;
    };
  }

  let categoryId: number | undefined;
  /** Creates a pet (in a shared test category unless one is given), with `quantity` in stock if given. */
  async function createPet({
    quantity,
    ...fields
  }: {
    name: string;
    categoryId?: number;
    status?: string;
    quantity?: number;
  }) {
    categoryId ??= (await ok(`mutation { createCategory(input: { name: "Test animals" }) { id } }`))
      .createCategory.id;
    const { createPet } = await ok(
      `mutation($input: NewPet!) { createPet(input: $input) { id name status categoryId } }`,
      { input: { categoryId, ...fields } },
    );
    if (quantity !== undefined) {
      await ok(
        'mutation($petId: Int64!, $q: Int!) { updateInventory(petId: $petId, input: { quantity: $q }) { quantity } }',
        { petId: createPet.id, q: quantity },
      );
    }
    return createPet as { id: number; name: string; status: string; categoryId: number };
  }

  const count = (model: 'pet' | 'category' | 'order' | 'inventoryItem') =>
    (prisma[model] as unknown as { count(): Promise<number> }).count();
  /** Every row of the store's tables: what a refused request must leave as it was. */
  const snapshot = async () => ({
    pets: await prisma.pet.findMany({ orderBy: { id: 'asc' } }),
    categories: await prisma.category.findMany({ orderBy: { id: 'asc' } }),
    orders: await prisma.order.findMany({ orderBy: { id: 'asc' } }),
    inventory: await prisma.inventoryItem.findMany({ orderBy: { petId: 'asc' } }),
  });

  /** How many of each the store holds: what a refused request must leave as it was. */
  const counts = async () => ({
    pets: await count('pet'),
    categories: await count('category'),
    orders: await count('order'),
    inventory: await count('inventoryItem'),
  });

  return {
    /** The loopback address the app is served on; only with `http: true`. */
    get url(): string {
      if (!http)
        throw new Error('startTestApp({ http: true }) serves on a port; this one answers in-process');
      return http.url;
    },
    fetch: request,
    send,
    post,
    get,
    postGraphQL,
    apiKey,
    prisma,
    database,
    graphql,
    ok,
    fails,
    createPet,
    count,
    counts,
    snapshot,
    close: async () => {
      await http?.close();
      await pipeline.close();
      await database.drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/**
 * A test app that records the SQL it runs, and `storeStatementsOf`: the result of one request with the SQL the
 * store ran for it (the API key lookup, cached by the rate-limit layer, aside), to tell an answer that executed
 * from one the response cache gave.
 */
export async function startCountingTestApp(options: Parameters<typeof startTestApp>[0] = {}) {
  let statements: string[] = [];
  const app = await startTestApp({ ...options, onQuery: (sql) => statements.push(sql) });
  async function storeStatementsOf<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    statements = [];
    const result = await request();
    return { result, sql: statements.filter((sql) => !/ApiKey/i.test(sql)) };
  }
  return { app, storeStatementsOf };
}

/** The test app of a file (or of the describe block this is called in): started before its tests, closed after. */
export const useTestApp = (options: Parameters<typeof startTestApp>[0] = {}): TestApp =>
  perFile(
    () => startTestApp(options),
    (app) => app.close(),
  );

/** useTestApp's counterpart for startCountingTestApp. */
export function useCountingTestApp(options: Parameters<typeof startTestApp>[0] = {}) {
  const counting = perFile(
    () => startCountingTestApp(options),
    ({ app }) => app.close(),
  );
  return {
    app: perFile(async () => counting.app),
    storeStatementsOf: <T>(request: () => Promise<T>) => counting.storeStatementsOf(request),
  };
}
