// What is measured: each row's gateway workload beside the baseline workload that asks the same question.
import type { Catalogue } from './database.ts';
import type { Request, Workload } from './load.ts';

export interface Scenario {
  name: string;
  gateway: Workload;
  baseline: Workload;
  /** For REST by id: the GraphQL row doing the same read, for the REST/GraphQL ratio. */
  sameAs?: string;
  /** The mixed row: its cache hit ratio is reported. */
  mixed?: boolean;
  /** A list read, which the list planner answers: measured again with LIST_PLANS=off. */
  list?: boolean;
}

const PAGE_SIZE = 100;
/** The stock an inventory update sets: as much as the seed gives, so orders never run out. */
const STOCK = 1_000_000;

const PET_BY_ID =
  'query PetById($id: Int64!) { pet(id: $id) { id name status categoryId category { id name } } }';
// Each category holds exactly PAGE_SIZE pets, so a category's page is a full page of 100.
const PET_PAGE = `query PetPage($categoryId: Int64!) {
  pets(first: ${PAGE_SIZE}, categoryId: $categoryId) {
    edges { node { id name status categoryId category { id name } } }
  }
}`;
/** The nested row: 10 categories from a given one on, each with its first 20 pets and their stock. */
export const NESTED_CATEGORIES = 10;
export const NESTED_PETS = 20;
export const NESTED_ROW = `query Nested($after: String) {
  categories(first: ${NESTED_CATEGORIES}, after: $after) { edges { node { id name
    pets(first: ${NESTED_PETS}) { edges { node { id name inventory { quantity status } } } } } } }
}`;
const PLACE_ORDER = `mutation PlaceOrder($petId: Int64!) {
  placeOrder(input: { petId: $petId, quantity: 1 }) { id petId quantity complete }
}`;
const CANCEL_ORDER = 'mutation CancelOrder($id: Int64!) { cancelOrder(id: $id) { id } }';
const SET_STOCK = `mutation SetStock($petId: Int64!) {
  updateInventory(petId: $petId, input: { quantity: ${STOCK} }) { petId quantity }
}`;

function randomOf<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** Requests prepared once: the load generator shares the CPU with the server, so it only picks one. */
function prepared(requests: Request[], graphql = false): Workload {
  return { next: () => randomOf(requests), graphql };
}

const graphqlRequest = (query: string, variables: Record<string, number | string>): Request => ({
  method: 'POST',
  path: '/graphql',
  body: JSON.stringify({ query, variables }),
});

function graphql(query: string, variable: string, values: bigint[]): Workload {
  return prepared(
    values.map((value) => graphqlRequest(query, { [variable]: Number(value) })),
    true,
  );
}

interface MixedShape {
  byId: Workload;
  page: Workload;
  placeOrder(petId: number): Request;
  cancelOrder(orderId: string): Request;
  setStock(petId: number): Request;
  /** The id of the order a place-order response created, if it did. */
  orderIdOf(body: string): string | undefined;
}

/**
 * Reads by id (75%), pages (20%), and writes (5%): orders placed (2%), orders cancelled (2%, the ones placed
 * earlier in the row), inventory updates (1%). The same mix on both sides.
 */
function mixed(petIds: bigint[], shape: MixedShape, graphqlBodies: boolean): Workload {
  const placed: string[] = [];
  return {
    graphql: graphqlBodies,
    next() {
      const draw = Math.random() * 100;
      if (draw < 75) return shape.byId.next();
      if (draw < 95) return shape.page.next();
      const petId = Number(randomOf(petIds));
      if (draw < 97) return shape.placeOrder(petId);
      const orderId = draw < 99 ? placed.shift() : undefined;
      if (orderId) return shape.cancelOrder(orderId);
      return draw < 99 ? shape.placeOrder(petId) : shape.setStock(petId);
    },
    onResponse(status, body) {
      if (status !== 200 && status !== 201) return;
      const id = shape.orderIdOf(body);
      if (id) placed.push(id);
    },
  };
}

/**
 * Reads that send back, as If-None-Match, the ETag each path's last answer carried: after a path's first read
 * (in the warm-up), each is a revalidation, answered 304 before the operation runs.
 */
function revalidating(paths: string[]): Workload {
  const tags = new Map<string, string>();
  return {
    next() {
      const path = randomOf(paths);
      const tag = tags.get(path);
      return { method: 'GET', path, ...(tag && { headers: { 'if-none-match': tag } }) };
    },
    onResponse(status, _body, sent) {
      const tag = sent?.headers.etag;
      if (sent && status === 200 && tag) tags.set(sent.path, tag);
    },
  };
}

export function benchScenarios({ petIds, categoryIds }: Catalogue): Scenario[] {
  // REST requests on the gateway have the same paths as on the baseline.
  const restById = prepared(petIds.map((id) => ({ method: 'GET', path: `/pets/${id}` })));
  const restPage = prepared(
    categoryIds.map((id) => ({ method: 'GET', path: `/pets?categoryId=${id}&limit=${PAGE_SIZE}` })),
  );
  const graphqlById = graphql(PET_BY_ID, 'id', petIds);
  // Starting after each of the first categories, as a client paging through them would (the same cursors).
  const starts = categoryIds.slice(0, Math.max(1, categoryIds.length - NESTED_CATEGORIES));
  const graphqlNested = prepared(
    starts.map((id) => graphqlRequest(NESTED_ROW, { after: Buffer.from(`GPC:I:${id}`).toString('base64') })),
    true,
  );
  const restNested = prepared(
    starts.map((id) => ({
      method: 'GET',
      path: `/categories?after=${id}&first=${NESTED_CATEGORIES}&pets=${NESTED_PETS}`,
    })),
  );
  const graphqlPage = graphql(PET_PAGE, 'categoryId', categoryIds);
  const json = (method: Request['method'], path: string, body: object): Request => ({
    method,
    path,
    body: JSON.stringify(body),
  });
  return [
    { name: 'GraphQL pet(id) + category name', gateway: graphqlById, baseline: restById },
    {
      name: 'REST GET /pets/{petId}',
      gateway: restById,
      baseline: restById,
      sameAs: 'GraphQL pet(id) + category name',
    },
    {
      // Beside the full read above; the baseline answers it in full (it has no validators).
      name: 'REST GET /pets/{petId} revalidated (304)',
      gateway: revalidating(petIds.map((id) => `/pets/${id}`)),
      baseline: restById,
    },
    {
      name: 'GraphQL page of 100 pets + category names',
      list: true,
      gateway: graphqlPage,
      baseline: restPage,
    },
    {
      name: 'GraphQL 10 categories x first 20 pets + stock',
      list: true,
      gateway: graphqlNested,
      baseline: restNested,
    },
    {
      name: 'mixed: 75% by id, 20% pages, 5% writes',
      mixed: true,
      gateway: mixed(
        petIds,
        {
          byId: graphqlById,
          page: graphqlPage,
          placeOrder: (petId) => graphqlRequest(PLACE_ORDER, { petId }),
          cancelOrder: (id) => graphqlRequest(CANCEL_ORDER, { id: Number(id) }),
          setStock: (petId) => graphqlRequest(SET_STOCK, { petId }),
          orderIdOf: (body) => /"placeOrder":\{"id":"?(\d+)/.exec(body)?.[1],
        },
        true,
      ),
      baseline: mixed(
        petIds,
        {
          byId: restById,
          page: restPage,
          placeOrder: (petId) => json('POST', '/store/orders', { petId, quantity: 1 }),
          cancelOrder: (id) => ({ method: 'DELETE', path: `/store/orders/${id}` }),
          setStock: (petId) => json('PUT', `/store/inventory/${petId}`, { quantity: STOCK }),
          orderIdOf: (body) => /^\{"id":"?(\d+)"?,"petId"/.exec(body)?.[1],
        },
        false,
      ),
    },
  ];
}
