// The Error object {code, message, status} shared by GraphQL (in `extensions`) and REST (as the body).
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  QUERY_TOO_COMPLEX: 400,
  DOCUMENT_NOT_TRUSTED: 400,
  DOCUMENT_NOT_FOUND: 400,
  PERSISTED_QUERY_NOT_FOUND: 400,
  PERSISTED_QUERY_NOT_SUPPORTED: 400,
  UNAUTHENTICATED: 401,
  INVALID_API_KEY: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  OUT_OF_STOCK: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_ANSWER_NOT_KEPT: 409,
  ENDPOINT_SUNSET: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  HEADERS_TOO_LARGE: 431,
  MISDIRECTED_REQUEST: 421,
  RATE_LIMITED: 429,
  KEY_BANNED: 429,
  TOO_MANY_SUBSCRIPTIONS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  SLOW_CONSUMER: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && code in ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
  }

  /** graphql-js copies an error's `extensions` onto the GraphQL error it wraps it in. */
  get extensions(): { code: ErrorCode; status: number } {
    return { code: this.code, status: this.status };
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

export const notFound = (what: string, id: bigint | number | string) =>
  new ApiError('NOT_FOUND', `${what} ${id} does not exist`);

/** The record a lookup found, or NOT_FOUND naming what was looked for. */
export async function found<T>(lookup: Promise<T | null>, what: string, id: bigint): Promise<T> {
  const record = await lookup;
  if (record === null) throw notFound(what, id);
  return record;
}

export const invalid = (field: string, problem: string) =>
  new ApiError('VALIDATION_FAILED', `${field}: ${problem}`);
