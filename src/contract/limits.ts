// Limits that error messages, the OpenAPI document and the docs state: each number is written here once, and
// the code that enforces it, the catalogue's message and the generated docs all read it from here.

/** Longest request target (path and query) served, in bytes (RFC 9112 asks servers to take at least 8000). */
export const MAX_TARGET_BYTES = 8192;

/** Largest page a list answers (`first`, `last`, `limit`, and the ids of `pets(ids:)`), and the default. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** An Idempotency-Key is 1 to this many printable ASCII characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** How long a key's first response is replayed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_RETENTION_HOURS = IDEMPOTENCY_RETENTION_MS / 3_600_000;

/** Default body limit of both APIs (GRAPHQL_MAX_BODY_BYTES, REST_MAX_BODY_BYTES). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Retry-After of a subscription refused TOO_MANY_SUBSCRIPTIONS: a place frees when one of the caller's streams
 * ends, which nobody can tell in advance, so a client tries again after a short while.
 */
export const SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS = 5;

/**
 * How deep a request's variables (and extensions) may nest: a list in a list counts two. The schema's deepest
 * input is three levels (an input object holding a list); 32 leaves room for any schema to come.
 */
export const MAX_VARIABLE_DEPTH = 32;
