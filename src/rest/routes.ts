import { parse } from 'graphql';
import { checkCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../graphql/paging.ts';
import { type ResourceName, ref, type SchemaObject, selectionOf } from './resources.ts';
import { pathParametersOf, type QueryParameter, type Route } from './route.ts';

// The REST API: each route, the one schema operation it runs, and what it answers (route.ts says what a route is).

const graphql = (source: string) => parse(source, { noLocation: true });

/** A record a route reads or writes, selected whole. */
type RecordType = Parameters<typeof selectionOf>[0];

const page = (resource: RecordType) =>
  `edges { node { ${selectionOf(resource)} } } pageInfo { hasNextPage endCursor }`;

const paging: QueryParameter[] = [
  {
    name: 'limit',
    description: `Page size, 1 to ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}. More than ${MAX_PAGE_SIZE} is refused (400), not cut.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
  {
    name: 'cursor',
    description:
      'Opaque position to continue from. Take the whole URL of the next page from the `Link: <…>; rel="next"` ' +
      'response header rather than building it.',
    schema: { type: 'string' },
    check: checkCursor,
  },
];

const listOf = (resource: ResourceName): SchemaObject => ({ type: 'array', items: ref(resource) });

/** What a route on one record runs: `field`, given the path's id (as `idArgument`) and the body (as `input`). */
interface OneRecordOperation {
  field: string;
  /** The field's argument the path's id is passed as. */
  idArgument?: 'id' | 'petId';
  /** The input type the body is passed as, `$input`. */
  input?: string;
  /** The record the field returns, answered whole; a DELETE answers no body. */
  returns?: RecordType;
}

/**
 * A route on one record (read, create, replace, change or delete it): its document and its success follow from
 * the method, the path and the field it runs. The operation is named after the route's operationId.
 */
function oneRecord(route: Omit<Route, 'document' | 'success'>, runs: OneRecordOperation): Route {
  const [pathId] = pathParametersOf(route.path);
  const variables = [pathId && `$${pathId}: Int64!`, runs.input && `$input: ${runs.input}!`].filter(Boolean);
  const args = [pathId && `${runs.idArgument ?? 'id'}: $${pathId}`, runs.input && 'input: $input'].filter(
    Boolean,
  );
  const kind = route.method === 'GET' ? 'query' : 'mutation';
  const name = route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
  const selection = runs.returns ? selectionOf(runs.returns) : 'id';
  const document = graphql(
    `${kind} ${name}(${variables.join(', ')}) { ${runs.field}(${args.join(', ')}) { ${selection} } }`,
  );
  if (!runs.returns) return { ...route, document, success: { kind: 'deleted' } };
  const schema = ref(runs.returns);
  return {
    ...route,
    document,
    success:
      route.method === 'POST'
        ? { kind: 'created', schema, location: `${route.path}/{id}` }
        : { kind: 'resource', schema },
  };
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/pets',
    operationId: 'listPets',
    tag: 'Pets',
    summary: 'List pets',
    description: 'Pets in id order, optionally filtered; `ids` is the successor of `GET /pets/{petId}`.',
    query: [
      { name: 'status', description: 'Only pets with this status.', schema: ref('PetStatus') },
      {
        name: 'categoryId',
        description: 'Only pets of this category.',
        schema: { type: 'integer', format: 'int64' },
      },
      {
        name: 'ids',
        description: `Only these pets: up to ${MAX_PAGE_SIZE} comma-separated ids, e.g. \`ids=1,2,3\`.`,
        schema: { type: 'array', items: { type: 'integer', format: 'int64' }, maxItems: MAX_PAGE_SIZE },
      },
      ...paging,
    ],
    document:
      graphql(`query ListPets($status: PetStatus, $categoryId: Int64, $ids: [Int64!], $limit: Int, $cursor: String) {
      pets(status: $status, categoryId: $categoryId, ids: $ids, first: $limit, after: $cursor) { ${page('Pet')} }
    }`),
    success: { kind: 'page', schema: ref('Pets') },
  },
  oneRecord(
    {
      method: 'POST',
      path: '/pets',
      operationId: 'createPet',
      tag: 'Pets',
      summary: 'Create a pet',
      description: 'Creates a pet with an inventory entry at quantity 0. An unknown `categoryId` is a 400.',
      body: { schema: 'NewPet' },
    },
    { field: 'createPet', input: 'NewPet', returns: 'Pet' },
  ),
  oneRecord(
    {
      method: 'GET',
      path: '/pets/{petId}',
      operationId: 'getPetById',
      tag: 'Pets',
      summary: 'Get a pet (deprecated: use GET /pets?ids={petId})',
      deprecated: 'petsById',
    },
    { field: 'pet', returns: 'Pet' },
  ),
  oneRecord(
    {
      method: 'PUT',
      path: '/pets/{petId}',
      operationId: 'replacePet',
      tag: 'Pets',
      summary: 'Replace a pet',
      description:
        'Full replace: `name` and `categoryId` are required; a `status` left out becomes `available`.',
      body: { schema: 'NewPet', defaults: { status: 'available' } },
    },
    { field: 'updatePet', input: 'PetPatch', returns: 'Pet' },
  ),
  oneRecord(
    {
      method: 'PATCH',
      path: '/pets/{petId}',
      operationId: 'updatePet',
      tag: 'Pets',
      summary: 'Change some fields of a pet',
      body: { schema: 'PetPatch' },
    },
    { field: 'updatePet', input: 'PetPatch', returns: 'Pet' },
  ),
  oneRecord(
    {
      method: 'DELETE',
      path: '/pets/{petId}',
      operationId: 'deletePet',
      tag: 'Pets',
      summary: 'Delete a pet',
      description:
        'Deletes the pet and its inventory entry. Completed orders keep their history without `petId`.',
      errors: [
        {
          code: 'CONFLICT',
          when: 'open orders reference the pet: complete or cancel them first',
          example: 'petHasOpenOrders',
        },
      ],
    },
    { field: 'deletePet' },
  ),
  {
    method: 'GET',
    path: '/categories',
    operationId: 'listCategories',
    tag: 'Pets',
    summary: 'List categories',
    description: 'Categories in id order, paged like `GET /pets`.',
    query: paging,
    document: graphql(`query ListCategories($limit: Int, $cursor: String) {
      categories(first: $limit, after: $cursor) { ${page('Category')} }
    }`),
    success: { kind: 'page', schema: listOf('Category') },
  },
  oneRecord(
    {
      method: 'POST',
      path: '/categories',
      operationId: 'createCategory',
      tag: 'Pets',
      summary: 'Create a category',
      body: { schema: 'NewCategory' },
    },
    { field: 'createCategory', input: 'NewCategory', returns: 'Category' },
  ),
  oneRecord(
    {
      method: 'GET',
      path: '/categories/{categoryId}',
      operationId: 'getCategory',
      tag: 'Pets',
      summary: 'Get a category',
    },
    { field: 'category', returns: 'Category' },
  ),
  oneRecord(
    {
      method: 'PUT',
      path: '/categories/{categoryId}',
      operationId: 'replaceCategory',
      tag: 'Pets',
      summary: 'Replace a category',
      description: 'Full replace: `name` is required; a `description` left out is removed.',
      body: { schema: 'NewCategory', defaults: { description: null } },
    },
    { field: 'updateCategory', input: 'CategoryPatch', returns: 'Category' },
  ),
  oneRecord(
    {
      method: 'PATCH',
      path: '/categories/{categoryId}',
      operationId: 'updateCategory',
      tag: 'Pets',
      summary: 'Change some fields of a category',
      body: { schema: 'CategoryPatch' },
    },
    { field: 'updateCategory', input: 'CategoryPatch', returns: 'Category' },
  ),
  oneRecord(
    {
      method: 'DELETE',
      path: '/categories/{categoryId}',
      operationId: 'deleteCategory',
      tag: 'Pets',
      summary: 'Delete a category',
      errors: [
        {
          code: 'CONFLICT',
          when: 'pets belong to the category: move or delete them first',
          example: 'categoryHasPets',
        },
      ],
    },
    { field: 'deleteCategory' },
  ),
  {
    method: 'GET',
    path: '/store/orders',
    operationId: 'listOrders',
    tag: 'Store',
    summary: 'List orders',
    description:
      'The orders your key placed (every order with the `admin` scope, none without a key), in id order, optionally ' +
      'filtered, paged like `GET /pets`.',
    query: [
      {
        name: 'petId',
        description: 'Only orders for this pet.',
        schema: { type: 'integer', format: 'int64' },
      },
      {
        name: 'complete',
        description: 'Only complete (true) or open (false) orders.',
        schema: { type: 'boolean' },
      },
      ...paging,
    ],
    document: graphql(`query ListOrders($petId: Int64, $complete: Boolean, $limit: Int, $cursor: String) {
      orders(petId: $petId, complete: $complete, first: $limit, after: $cursor) { ${page('Order')} }
    }`),
    success: { kind: 'page', schema: listOf('Order') },
    hideTryItPanel: true,
  },
  oneRecord(
    {
      method: 'POST',
      path: '/store/orders',
      operationId: 'placeOrder',
      tag: 'Store',
      summary: 'Place an order',
      description:
        "Takes `quantity` from the pet's stock in the same transaction; an unknown `petId` is a 400.",
      body: { schema: 'NewOrder' },
      errors: [{ code: 'OUT_OF_STOCK', when: 'the stock is below the quantity ordered; nothing is taken' }],
    },
    { field: 'placeOrder', input: 'NewOrder', returns: 'Order' },
  ),
  oneRecord(
    {
      method: 'GET',
      path: '/store/orders/{orderId}',
      operationId: 'getOrder',
      tag: 'Store',
      summary: 'Get an order',
      description:
        'One your key placed (any, with the `admin` scope); another key’s order is 404, as if it did not exist.',
    },
    { field: 'order', returns: 'Order' },
  ),
  oneRecord(
    {
      method: 'PATCH',
      path: '/store/orders/{orderId}',
      operationId: 'updateOrder',
      tag: 'Store',
      summary: 'Change the ship date of an order or complete it',
      body: { schema: 'OrderPatch' },
      errors: [
        {
          code: 'CONFLICT',
          when: '`complete: false` on a complete order: completion cannot be undone',
          example: 'orderCompletionFinal',
        },
      ],
    },
    { field: 'updateOrder', input: 'OrderPatch', returns: 'Order' },
  ),
  oneRecord(
    {
      method: 'DELETE',
      path: '/store/orders/{orderId}',
      operationId: 'cancelOrder',
      tag: 'Store',
      summary: 'Cancel an order',
      description: 'Cancels an open order and gives its quantity back to stock.',
      errors: [
        {
          code: 'CONFLICT',
          when: 'the order is complete and cannot be cancelled',
          example: 'completeOrderNotCancelled',
        },
      ],
    },
    { field: 'cancelOrder' },
  ),
  {
    method: 'GET',
    path: '/store/inventory',
    operationId: 'listInventory',
    tag: 'Store',
    summary: 'List inventory entries',
    description: 'Inventory entries in pet id order, optionally filtered by status, paged like `GET /pets`.',
    query: [
      { name: 'status', description: 'Only entries with this status.', schema: ref('PetStatus') },
      ...paging,
    ],
    document: graphql(`query ListInventory($status: PetStatus, $limit: Int, $cursor: String) {
      inventory(status: $status, first: $limit, after: $cursor) { ${page('InventoryItem')} }
    }`),
    success: { kind: 'page', schema: listOf('InventoryItem') },
  },
  oneRecord(
    {
      method: 'GET',
      path: '/store/inventory/{petId}',
      operationId: 'getInventoryItem',
      tag: 'Store',
      summary: 'Get the inventory entry of a pet',
    },
    { field: 'inventoryItem', idArgument: 'petId', returns: 'InventoryItem' },
  ),
  oneRecord(
    {
      method: 'PUT',
      path: '/store/inventory/{petId}',
      operationId: 'updateInventory',
      tag: 'Store',
      summary: 'Set the stock count of a pet',
      body: { schema: 'InventoryUpdate' },
    },
    { field: 'updateInventory', idArgument: 'petId', input: 'InventoryUpdate', returns: 'InventoryItem' },
  ),
];
