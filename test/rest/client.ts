import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/contract/errors.ts';
import type { TestApp } from '../support/app.ts';
import { perFile } from '../support/per-file.ts';

export interface RestResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the document, then by assertions
  body: any;
  text: string;
}

export interface RestRequest {
  /** A JSON value to send, or a string or stream sent as it is. */
  body?: unknown;
  /** The API key to send; null for none. The app's Business key by default. */
  key?: string | null;
  headers?: Record<string, string>;
}

interface ResponseObject {
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, { $ref: string }>;
}

interface DocumentedOperation {
  method: string;
  pattern: RegExp;
  pointer: string;
  responses: Record<string, ResponseObject>;
}

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components: { headers: Record<string, { required?: boolean }> };
};

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * A REST client for tests that holds the gateway to its own OpenAPI document: every response must have a
 * status the document lists for that operation, a body valid against the schema documented for that status,
 * and the headers the document marks as required. Paths and methods the document lacks must answer with
 * the Error object (404, 405).
 */
export async function createRestClient(app: Pick<TestApp, 'fetch' | 'apiKey'>) {
  const document = (await (await app.fetch('/openapi.json')).json()) as Document;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };

  const operations: DocumentedOperation[] = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
      pointer: `/paths/${escapePointer(template)}/${method}`,
      responses: operation.responses,
    })),
  );

  function check(method: string, path: string, response: Response, text: string, body: unknown) {
    const where = `${method} ${path} -> ${response.status} ${text.slice(0, 300)}`;
    const pathname = new URL(path, 'http://gateway').pathname;
    const operation = operations.find((op) => op.method === method && op.pattern.test(pathname));
    if (!operation) {
      expect([404, 405], `${where}: not in the document, so it must be refused`).toContain(response.status);
      expect(validatorAt('/components/schemas/Error')(body), where).toBe(true);
      return;
    }
    const documented = operation.responses[String(response.status)];
    expect(documented, `${where}: status not documented for this operation`).toBeDefined();
    const schema = documented?.content?.['application/json'];
    if (!schema) {
      expect(text, `${where}: no body documented`).toBe('');
    } else {
      expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
      const validate = validatorAt(
        `${operation.pointer}/responses/${response.status}/content/application~1json/schema`,
      );
      expect(validate(body), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    for (const [name, { $ref }] of Object.entries(documented?.headers ?? {})) {
      const component = $ref.split('/').pop() as string;
      if (document.components.headers[component]?.required) {
        expect(
          response.headers.get(name),
          `${where}: header ${name} is documented as always sent`,
        ).not.toBeNull();
      }
    }
  }

  async function request(method: string, path: string, options: RestRequest = {}): Promise<RestResponse> {
    const { body, key = app.apiKey, headers = {} } = options;
    const sentAsIs = typeof body === 'string' || body instanceof ReadableStream;
    const response = await app.fetch(path, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(key && { 'x-api-key': key }),
        ...headers,
      },
      body: body === undefined ? undefined : sentAsIs ? body : JSON.stringify(body),
      duplex: 'half', // lets a stream be sent, chunked
    } as RequestInit);
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    check(method, path, response, text, parsed);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    document,
    request,
    get: (path: string, options?: RestRequest) => request('GET', path, options),
    post: (path: string, body: unknown, options?: RestRequest) => request('POST', path, { ...options, body }),
    put: (path: string, body: unknown, options?: RestRequest) => request('PUT', path, { ...options, body }),
    patch: (path: string, body: unknown, options?: RestRequest) =>
      request('PATCH', path, { ...options, body }),
    delete: (path: string, options?: RestRequest) => request('DELETE', path, options),
  };
}

export type RestClient = Awaited<ReturnType<typeof createRestClient>>;

/** The REST client of a file's test app (useTestApp), made before the file's tests. */
export const useRestClient = (app: Pick<TestApp, 'fetch' | 'apiKey'>): RestClient =>
  perFile(() => createRestClient(app));

/** Asserts a REST response is the Error object of `code`, with its status, and `message`. */
export function expectErrorObject(response: RestResponse, code: ErrorCode, message: string): void {
  expect(response.status, response.text).toBe(ERROR_STATUS[code]);
  expect(response.body).toEqual({ code, message, status: ERROR_STATUS[code] });
}
