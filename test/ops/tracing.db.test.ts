import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { startTracing } from '../../src/observability/start-tracing.ts';
import { REDIS_KEY_PREFIX, REDIS_URL } from '../ratelimit/stores.ts';
import { useTestApp } from '../support/app.ts';

// The spans of one GraphQL and one REST request, exported to memory: their tree, their attributes, and the
// caller's trace context taken from `traceparent`. Tracing is global to a process: this file starts it once.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const traceparent = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

const exporter = new InMemorySpanExporter();
let stopTracing: () => Promise<void>;
// Started before the app, stopped after it.
beforeAll(() => {
  stopTracing = startTracing({ ...process.env, OTEL_SERVICE_NAME: 'gateway-under-test' }, exporter);
});
afterAll(() => stopTracing?.());
const app = useTestApp({ env: { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: REDIS_KEY_PREFIX } });

/** The spans of the trace `traceId`, once its HTTP span has ended (with the response). */
async function traceOf(traceId: string): Promise<ReadableSpan[]> {
  await expect
    .poll(() =>
      exporter
        .getFinishedSpans()
        .some((span) => span.spanContext().traceId === traceId && span.kind === SpanKind.SERVER),
    )
    .toBe(true);
  return exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
}

const parentOf = (span: ReadableSpan, spans: ReadableSpan[]) =>
  spans.find((candidate) => candidate.spanContext().spanId === span.parentSpanContext?.spanId);

/** Every attribute value of every span, to check that no secret is among them. */
const everyValue = (spans: ReadableSpan[]) =>
  spans.flatMap((span) => Object.values(span.attributes).map(String));

describe('OpenTelemetry tracing', () => {
  it('traces a GraphQL request: HTTP, rate limit, parse, validate, execute and its Prisma queries, under the caller’s trace', async () => {
    const response = await app.graphql(
      'query FirstPets { pets(first: 2) { edges { node { id name } } } }',
      undefined,
      {
        headers: { traceparent },
      },
    );
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');

    const spans = await traceOf(TRACE_ID);
    const http = spans.find((span) => span.name.startsWith('POST graphql'));
    expect(http?.name).toBe('POST graphql FirstPets');
    expect(http?.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(http?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'petstore.request_id': requestId,
      'petstore.plan': 'business',
      'graphql.operation.name': 'FirstPets',
    });
    for (const step of ['rate limit', 'graphql.parse', 'graphql.validate', 'graphql.execute']) {
      const span = spans.find((candidate) => candidate.name === step);
      expect(span, step).toBeDefined();
      expect(parentOf(span as ReadableSpan, spans)?.name, step).toBe(http?.name);
    }
    const execute = spans.find((span) => span.name === 'graphql.execute') as ReadableSpan;
    expect(execute.attributes).toMatchObject({
      'graphql.operation.name': 'FirstPets',
      'graphql.operation.type': 'query',
    });
    // Prisma's spans of the store's reads hang under the execution that made them (or the list plan that ran
    // in its place: docs/tracing.md); the key's lookup hangs under the request.
    const prisma = spans.filter((span) => span.name.startsWith('prisma:'));
    expect(prisma.length).toBeGreaterThan(0);
    const topPrisma = prisma.filter((span) => !parentOf(span, spans)?.name.startsWith('prisma:'));
    expect(topPrisma.map((span) => parentOf(span, spans)?.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(graphql\.execute|list plan)$/)]),
    );
    // The rate limit counted on Redis: its commands are spans of the request.
    expect(spans.some((span) => span.name.startsWith('redis '))).toBe(true);
    expect(everyValue(spans).some((value) => value.includes(app.apiKey))).toBe(false);
    expect(http?.resource.attributes['service.name']).toBe('gateway-under-test');
  });

  it('traces a REST request the same way, a new trace when the caller sent none', async () => {
    exporter.reset();
    const response = await app.get('/pets?limit=2');
    expect(response.status).toBe(200);
    await expect
      .poll(() => exporter.getFinishedSpans().some((span) => span.name === 'GET rest listPets'))
      .toBe(true);
    const http = exporter
      .getFinishedSpans()
      .find((span) => span.name === 'GET rest listPets') as ReadableSpan;
    expect(http.parentSpanContext).toBeUndefined();
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === http.spanContext().traceId);
    expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(['rate limit', 'graphql.execute']));
    expect(spans.some((span) => span.name.startsWith('prisma:'))).toBe(true);
    expect(http.attributes).toMatchObject({ 'petstore.api': 'rest', 'petstore.plan': 'business' });
    expect(everyValue(spans).some((value) => value.includes(app.apiKey))).toBe(false);
  });
});

describe('the setting', () => {
  it('is off by default and on when an OTLP exporter is named, unless the SDK is disabled', () => {
    expect(loadConfig({}).tracing).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).tracing).toBe(true);
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toBe(true);
    expect(
      loadConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }).tracing,
    ).toBe(false);
    expect(loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toBe(false);
  });
});
