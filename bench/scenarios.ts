// What is measured: each gateway scenario beside the baseline request that does the same work directly.
import type { Catalogue } from './database.ts';
import type { Workload } from './load.ts';

export type BaselineKind = 'read by id' | 'page of 100' | 'order write';

export interface Scenario {
  name: string;
  baseline: BaselineKind;
  workload: Workload;
  /** REST routes answer 404 until the REST adapter serves them; the row is then "n/a". */
  rest: boolean;
  /** For REST by id: the GraphQL scenario doing the same read, for the REST/GraphQL ratio. */
  sameAs?: string;
}

const PAGE_SIZE = 100;

const PET_BY_ID = 'query PetById($id: Int64!) { pet(id: $id) { id name status categoryId } }';
// Each category holds exactly PAGE_SIZE pets, so a category's page is a full page of 100.
const PET_PAGE = `query PetPage($categoryId: Int64!) {
  pets(first: ${PAGE_SIZE}, categoryId: $categoryId) {
    edges { node { id name status categoryId category { id name } inventory { quantity status } } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const PLACE_ORDER = `mutation PlaceOrder($petId: Int64!) {
  placeOrder(input: { petId: $petId, quantity: 1 }) { id petId quantity complete }
}`;

function randomOf<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** Requests prepared once: the load generator shares the CPU with the server, so it only picks one. */
function prepared(
  method: Workload['method'],
  requests: { path: string; body?: string }[],
  graphql = false,
): Workload {
  return { method, next: () => randomOf(requests), graphql };
}

function graphql(query: string, variable: string, values: bigint[]): Workload {
  const bodies = values.map((value) => JSON.stringify({ query, variables: { [variable]: Number(value) } }));
  return prepared(
    'POST',
    bodies.map((body) => ({ path: '/graphql', body })),
    true,
  );
}

export interface Workloads {
  baseline: Record<BaselineKind, Workload>;
  gateway: Scenario[];
  /** The longer read load under which the gateway's memory is watched: reads by id and pages, mixed. */
  soak: Workload;
}

export function benchWorkloads({ petIds, categoryIds }: Catalogue): Workloads {
  // REST requests on the gateway have the same paths as on the baseline.
  const restById = prepared(
    'GET',
    petIds.map((id) => ({ path: `/pets/${id}` })),
  );
  const restPage = prepared(
    'GET',
    categoryIds.map((id) => ({ path: `/pets?categoryId=${id}&limit=${PAGE_SIZE}` })),
  );
  const graphqlById = graphql(PET_BY_ID, 'id', petIds);
  const graphqlPage = graphql(PET_PAGE, 'categoryId', categoryIds);
  return {
    baseline: {
      'read by id': restById,
      'page of 100': restPage,
      'order write': prepared(
        'POST',
        petIds.map((petId) => ({
          path: '/store/orders',
          body: JSON.stringify({ petId: Number(petId), quantity: 1 }),
        })),
      ),
    },
    gateway: [
      { name: 'GraphQL pet(id)', baseline: 'read by id', workload: graphqlById, rest: false },
      {
        name: 'REST GET /pets/{petId}',
        baseline: 'read by id',
        workload: restById,
        rest: true,
        sameAs: 'GraphQL pet(id)',
      },
      {
        name: 'GraphQL pets(first: 100) + category, inventory',
        baseline: 'page of 100',
        workload: graphqlPage,
        rest: false,
      },
      {
        name: 'REST GET /pets?limit=100',
        baseline: 'page of 100',
        workload: restPage,
        rest: true,
      },
      {
        name: 'GraphQL placeOrder',
        baseline: 'order write',
        workload: graphql(PLACE_ORDER, 'petId', petIds),
        rest: false,
      },
    ],
    soak: { method: 'POST', graphql: true, next: () => randomOf([graphqlById, graphqlPage]).next() },
  };
}
