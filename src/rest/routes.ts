import { type DocumentNode, type GraphQLSchema, getOperationAST, Kind, parse, validate } from 'graphql';
import type { ErrorCode, ErrorName } from '../contract/errors.ts';
import { IDEMPOTENCY_RETENTION_HOURS, MAX_TARGET_BYTES } from '../contract/limits.ts';
import { checkCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../graphql/paging.ts';
import type { BodyInput } from './body-schemas.ts';
import { type ResourceName, ref, type SchemaObject, selectionOf } from './resources.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An error a route can answer, when, and the catalogue entry its OpenAPI example shows (else the code's first). */
export interface RouteError {
  code: ErrorCode;
  when: string;
  example?: ErrorName;
}

export interface QueryParameter {
  name: string;
  description: string;
  schema: SchemaObject;
  /** Refuses a value its schema cannot describe (a cursor the API did not issue), naming the parameter. */
  check?: (name: string, text: string) => void;
}

/** What a successful result becomes: the root field's value as the body, a page of a list, or no body. */
export type Success =
  | { kind: 'resource'; schema: SchemaObject }
  | { kind: 'created'; schema: SchemaObject; location: string }
  | { kind: 'page'; schema: SchemaObject }
  | { kind: 'deleted' };

export interface Route {
  method: Method;
  /** OpenAPI path template; each `{name}` is an int64 id, passed as the variable `$name`. */
  path: string;
  operationId: string;
  tag: 'Pets' | 'Store';
  summary: string;
  description?: string;
  /** Query parameters, passed as the variables of the same names. */
  query?: QueryParameter[];
  /** The JSON body: a value of the input type `schema`, passed as `$input` with `defaults` for fields left out. */
  body?: { schema: BodyInput; defaults?: Record<string, unknown> };
  /** The schema operation the route runs: one root field, parsed once at start-up. */
  document: DocumentNode;
  success: Success;
  /** Errors particular to this operation; those every operation of its kind can give are in `errorsOf`. */
  errors?: RouteError[];
  /** GET /pets/{petId}: deprecated, and retired after its sunset, as contract/pets-by-id.ts says. */
  deprecated?: 'petsById';
  hideTryItPanel?: boolean;
}

const graphql = (source: string) => parse(source, { noLocation: true });

const page = (resource: 'Pet' | 'Category' | 'Order' | 'InventoryItem') =>
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
  {
    method: 'POST',
    path: '/pets',
    operationId: 'createPet',
    tag: 'Pets',
    summary: 'Create a pet',
    description: 'Creates a pet with an inventory entry at quantity 0. An unknown `categoryId` is a 400.',
    body: { schema: 'NewPet' },
    document: graphql(
      `mutation CreatePet($input: NewPet!) { createPet(input: $input) { ${selectionOf('Pet')} } }`,
    ),
    success: { kind: 'created', schema: ref('Pet'), location: '/pets/{id}' },
  },
  {
    method: 'GET',
    path: '/pets/{petId}',
    operationId: 'getPetById',
    tag: 'Pets',
    summary: 'Get a pet (deprecated: use GET /pets?ids={petId})',
    deprecated: 'petsById',
    document: graphql(`query GetPetById($petId: Int64!) { pet(id: $petId) { ${selectionOf('Pet')} } }`),
    success: { kind: 'resource', schema: ref('Pet') },
  },
  {
    method: 'PUT',
    path: '/pets/{petId}',
    operationId: 'replacePet',
    tag: 'Pets',
    summary: 'Replace a pet',
    description:
      'Full replace: `name` and `categoryId` are required; a `status` left out becomes `available`.',
    body: { schema: 'NewPet', defaults: { status: 'available' } },
    document: graphql(`mutation ReplacePet($petId: Int64!, $input: PetPatch!) {
      updatePet(id: $petId, input: $input) { ${selectionOf('Pet')} }
    }`),
    success: { kind: 'resource', schema: ref('Pet') },
  },
  {
    method: 'PATCH',
    path: '/pets/{petId}',
    operationId: 'updatePet',
    tag: 'Pets',
    summary: 'Change some fields of a pet',
    body: { schema: 'PetPatch' },
    document: graphql(`mutation UpdatePet($petId: Int64!, $input: PetPatch!) {
      updatePet(id: $petId, input: $input) { ${selectionOf('Pet')} }
    }`),
    success: { kind: 'resource', schema: ref('Pet') },
  },
  {
    method: 'DELETE',
    path: '/pets/{petId}',
    operationId: 'deletePet',
    tag: 'Pets',
    summary: 'Delete a pet',
    description:
      'Deletes the pet and its inventory entry. Completed orders keep their history without `petId`.',
    document: graphql(`mutation DeletePet($petId: Int64!) { deletePet(id: $petId) { id } }`),
    success: { kind: 'deleted' },
    errors: [
      {
        code: 'CONFLICT',
        when: 'open orders reference the pet: complete or cancel them first',
        example: 'petHasOpenOrders',
      },
    ],
  },
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
  {
    method: 'POST',
    path: '/categories',
    operationId: 'createCategory',
    tag: 'Pets',
    summary: 'Create a category',
    body: { schema: 'NewCategory' },
    document: graphql(`mutation CreateCategory($input: NewCategory!) {
      createCategory(input: $input) { ${selectionOf('Category')} }
    }`),
    success: { kind: 'created', schema: ref('Category'), location: '/categories/{id}' },
  },
  {
    method: 'GET',
    path: '/categories/{categoryId}',
    operationId: 'getCategory',
    tag: 'Pets',
    summary: 'Get a category',
    document: graphql(`query GetCategory($categoryId: Int64!) {
      category(id: $categoryId) { ${selectionOf('Category')} }
    }`),
    success: { kind: 'resource', schema: ref('Category') },
  },
  {
    method: 'PUT',
    path: '/categories/{categoryId}',
    operationId: 'replaceCategory',
    tag: 'Pets',
    summary: 'Replace a category',
    description: 'Full replace: `name` is required; a `description` left out is removed.',
    body: { schema: 'NewCategory', defaults: { description: null } },
    document: graphql(`mutation ReplaceCategory($categoryId: Int64!, $input: CategoryPatch!) {
      updateCategory(id: $categoryId, input: $input) { ${selectionOf('Category')} }
    }`),
    success: { kind: 'resource', schema: ref('Category') },
  },
  {
    method: 'PATCH',
    path: '/categories/{categoryId}',
    operationId: 'updateCategory',
    tag: 'Pets',
    summary: 'Change some fields of a category',
    body: { schema: 'CategoryPatch' },
    document: graphql(`mutation UpdateCategory($categoryId: Int64!, $input: CategoryPatch!) {
      updateCategory(id: $categoryId, input: $input) { ${selectionOf('Category')} }
    }`),
    success: { kind: 'resource', schema: ref('Category') },
  },
  {
    method: 'DELETE',
    path: '/categories/{categoryId}',
    operationId: 'deleteCategory',
    tag: 'Pets',
    summary: 'Delete a category',
    document: graphql(
      `mutation DeleteCategory($categoryId: Int64!) { deleteCategory(id: $categoryId) { id } }`,
    ),
    success: { kind: 'deleted' },
    errors: [
      {
        code: 'CONFLICT',
        when: 'pets belong to the category: move or delete them first',
        example: 'categoryHasPets',
      },
    ],
  },
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
  {
    method: 'POST',
    path: '/store/orders',
    operationId: 'placeOrder',
    tag: 'Store',
    summary: 'Place an order',
    description:
      "Takes `quantity` from the pet's stock in the same transaction; an unknown `petId` is a 400.",
    body: { schema: 'NewOrder' },
    document: graphql(
      `mutation PlaceOrder($input: NewOrder!) { placeOrder(input: $input) { ${selectionOf('Order')} } }`,
    ),
    success: { kind: 'created', schema: ref('Order'), location: '/store/orders/{id}' },
    errors: [{ code: 'OUT_OF_STOCK', when: 'the stock is below the quantity ordered; nothing is taken' }],
  },
  {
    method: 'GET',
    path: '/store/orders/{orderId}',
    operationId: 'getOrder',
    tag: 'Store',
    summary: 'Get an order',
    description:
      'One your key placed (any, with the `admin` scope); another key’s order is 404, as if it did not exist.',
    document: graphql(`query GetOrder($orderId: Int64!) { order(id: $orderId) { ${selectionOf('Order')} } }`),
    success: { kind: 'resource', schema: ref('Order') },
  },
  {
    method: 'PATCH',
    path: '/store/orders/{orderId}',
    operationId: 'updateOrder',
    tag: 'Store',
    summary: 'Change the ship date of an order or complete it',
    body: { schema: 'OrderPatch' },
    document: graphql(`mutation UpdateOrder($orderId: Int64!, $input: OrderPatch!) {
      updateOrder(id: $orderId, input: $input) { ${selectionOf('Order')} }
    }`),
    success: { kind: 'resource', schema: ref('Order') },
    errors: [
      {
        code: 'CONFLICT',
        when: '`complete: false` on a complete order: completion cannot be undone',
        example: 'orderCompletionFinal',
      },
    ],
  },
  {
    method: 'DELETE',
    path: '/store/orders/{orderId}',
    operationId: 'cancelOrder',
    tag: 'Store',
    summary: 'Cancel an order',
    description: 'Cancels an open order and gives its quantity back to stock.',
    document: graphql(`mutation CancelOrder($orderId: Int64!) { cancelOrder(id: $orderId) { id } }`),
    success: { kind: 'deleted' },
    errors: [
      {
        code: 'CONFLICT',
        when: 'the order is complete and cannot be cancelled',
        example: 'completeOrderNotCancelled',
      },
    ],
  },
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
  {
    method: 'GET',
    path: '/store/inventory/{petId}',
    operationId: 'getInventoryItem',
    tag: 'Store',
    summary: 'Get the inventory entry of a pet',
    document: graphql(`query GetInventoryItem($petId: Int64!) {
      inventoryItem(petId: $petId) { ${selectionOf('InventoryItem')} }
    }`),
    success: { kind: 'resource', schema: ref('InventoryItem') },
  },
  {
    method: 'PUT',
    path: '/store/inventory/{petId}',
    operationId: 'updateInventory',
    tag: 'Store',
    summary: 'Set the stock count of a pet',
    body: { schema: 'InventoryUpdate' },
    document: graphql(`mutation UpdateInventory($petId: Int64!, $input: InventoryUpdate!) {
      updateInventory(petId: $petId, input: $input) { ${selectionOf('InventoryItem')} }
    }`),
    success: { kind: 'resource', schema: ref('InventoryItem') },
  },
];

export const pathParametersOf = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);

/** The schema field a route runs, e.g. `pets`. */
export function rootFieldOf(route: Route): string {
  const [operation] = route.document.definitions;
  const [selection] = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections : [];
  if (selection?.kind !== Kind.FIELD)
    throw new Error(`${route.operationId}: the document must select one root field`);
  return selection.name.value;
}

export const isWrite = (route: Route) => route.method !== 'GET';

/** Every error an operation can give: its own, and those that follow from its kind. */
export function errorsOf(route: Route): RouteError[] {
  const hasPathIds = pathParametersOf(route.path).length > 0;
  const errors: (RouteError | false)[] = [
    {
      code: 'VALIDATION_FAILED',
      when: isWrite(route)
        ? 'a parameter, body field or the Idempotency-Key header is invalid or unknown (text with a control ' +
          'character, a cursor this API did not issue), or the request target or Host is malformed; the message ' +
          'names it'
        : 'a parameter or body field is invalid or unknown (a cursor this API did not issue), or the request ' +
          'target or Host is malformed; the message names it',
    },
    isWrite(route) && {
      code: 'UNAUTHENTICATED',
      when: 'no X-API-Key header: writes need a key',
      example: 'writesNeedKey',
    },
    { code: 'INVALID_API_KEY', when: 'the X-API-Key is unknown or revoked' },
    isWrite(route) && {
      code: 'FORBIDDEN',
      example: 'scopeMissing',
      when: 'the key lacks the scope in `x-required-scope`; the message names it, and nothing ran',
    },
    hasPathIds && { code: 'NOT_FOUND', when: 'no record has this id' },
    ...(route.errors ?? []),
    route.deprecated !== undefined && { code: 'ENDPOINT_SUNSET', when: 'the sunset date has passed' },
    isWrite(route) && {
      code: 'PAYLOAD_TOO_LARGE',
      when: 'the body is larger than the configured limit',
    },
    {
      code: 'URI_TOO_LONG',
      when: `the request target (path and query) is longer than ${MAX_TARGET_BYTES} bytes`,
    },
    route.body !== undefined && {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      when: 'the body is not sent as application/json',
    },
    isWrite(route) && {
      code: 'IDEMPOTENCY_KEY_IN_USE',
      when: 'the first request with this Idempotency-Key is still running: retry once it has finished',
    },
    isWrite(route) && {
      code: 'IDEMPOTENCY_ANSWER_NOT_KEPT',
      when:
        'the request with this Idempotency-Key ran, but its answer was past what a record keeps ' +
        '(docs/idempotency.md): it is not run again; read its outcome instead',
    },
    isWrite(route) && {
      code: 'IDEMPOTENCY_KEY_REUSED',
      when: `this Idempotency-Key came with another request (method, path or body) in the last ${IDEMPOTENCY_RETENTION_HOURS} hours`,
    },
    {
      code: 'RATE_LIMITED',
      when: 'the key (or anonymous IP) is over its plan; retry after Retry-After seconds',
    },
    { code: 'KEY_BANNED', when: 'the caller kept sending while refused; banned until Retry-After' },
    { code: 'INTERNAL', when: 'an unexpected failure (logged, details not disclosed)' },
    {
      code: 'UNAVAILABLE',
      when:
        'a dependency (database, rate-limit store) is unreachable or did not answer in time, or the gateway ' +
        'is stopping; retry after Retry-After seconds',
    },
  ];
  return errors.filter((error) => error !== false);
}

/**
 * Fails start-up when a route's operation does not fit the schema, or when its variables are not exactly its
 * path parameters, query parameters and (with a body) `$input`: a parameter could otherwise be dropped silently.
 */
export function checkRoute(schema: GraphQLSchema, route: Route): void {
  const problems = validate(schema, route.document).map((error) => error.message);
  const declared = (getOperationAST(route.document)?.variableDefinitions ?? []).map(
    (v) => v.variable.name.value,
  );
  const expected = [
    ...pathParametersOf(route.path),
    ...(route.query ?? []).map((p) => p.name),
    ...(route.body ? ['input'] : []),
  ];
  if (declared.sort().join() !== expected.sort().join()) {
    problems.push(`its variables are ${declared.join(', ')}; its parameters are ${expected.join(', ')}`);
  }
  if (problems.length > 0)
    throw new Error(`REST route ${route.method} ${route.path}: ${problems.join('; ')}`);
}
