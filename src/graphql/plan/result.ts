import { randomBytes } from 'node:crypto';
import type { ExecutionResult } from 'graphql';
import { stringifyJson } from '../../contract/json.ts';

/**
 * The answer of a planned operation: the `data` object's JSON text as the database built it, spliced into the
 * response body unparsed (Yoga writes a result with its own `stringify`). `data` is parsed only when something
 * reads it (a REST route's page, a response-cache hit), with Int64 values beyond 2^53 kept exact as BigInts,
 * as the resolvers hand them over.
 */
export function plannedResult(json: string): ExecutionResult {
  let data: ExecutionResult['data'];
  const result = {
    stringify: (value: ExecutionResult) =>
      value.errors?.length || value.extensions ? stringifyJson(value) : `{"data":${json}}`,
  } as ExecutionResult & { stringify: (value: ExecutionResult) => string };
  Object.defineProperty(result, 'data', {
    enumerable: true,
    get: () => {
      data ??= parseWithInt64(json) as ExecutionResult['data'];
      return data;
    },
  });
  return result;
}

// A JSON string, or an integer too long to be surely safe.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d{16,}/g;

/** JSON.parse, with integers beyond 2^53 as BigInts instead of rounded numbers. */
export function parseWithInt64(json: string): unknown {
  const mark = `\u0000${randomBytes(6).toString('hex')}:`;
  let marked = false;
  const text = json.replace(TOKENS, (token) => {
    if (token.startsWith('"') || Number.isSafeInteger(Number(token))) return token;
    marked = true;
    return JSON.stringify(`${mark}${token}`);
  });
  if (!marked) return JSON.parse(json);
  return JSON.parse(text, (_key, value) =>
    typeof value === 'string' && value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value,
  );
}
