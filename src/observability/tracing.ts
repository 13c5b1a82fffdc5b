import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import { requestContextOf } from './request-context.ts';

// OpenTelemetry tracing (docs/tracing.md): the spans of the request path, on the API package alone. Off until
// start-tracing.ts hands over a tracer; while off every helper here checks one variable and does nothing else.

let tracer: Tracer | undefined;

/** The tracer of this process's spans; undefined turns tracing off. */
export function setTracer(next: Tracer | undefined): void {
  tracer = next;
}

/** Whether this process traces (startTracing ran). */
export const tracingIsOn = () => tracer !== undefined;

/**
 * Runs a request inside its HTTP span, a child of the caller's `traceparent` when it sent one. The span ends
 * with the response, named by the API and operation the request ran, with its status and request id.
 */
export function traceRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => Promise<void>,
): Promise<void> {
  if (!tracer) return handle();
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer.startSpan(
    `HTTP ${req.method}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method ?? '', 'url.path': req.url?.split('?')[0] ?? '' },
    },
    parent,
  );
  res.once('close', () => {
    const request = requestContextOf(req);
    if (request) {
      span.updateName(`${req.method} ${request.api} ${request.operation}`);
      span.setAttributes({
        'petstore.request_id': request.id,
        'petstore.api': request.api,
        'graphql.operation.name': request.operation,
      });
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return context.with(trace.setSpan(parent, span), handle);
}

/** Sets attributes on the request's span (the plan that was charged, never the key). */
export function annotateRequestSpan(attributes: Attributes): void {
  if (tracer) trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * Runs `step` in a span of its own, ended when its value (or promise) settles. A value that is not a promise
 * stays one: the rate-limit layer answers most requests without a promise.
 */
export function inSpan<T>(
  name: string,
  step: () => MaybePromise<T>,
  attributes?: Attributes,
): MaybePromise<T> {
  if (!tracer) return step();
  const span = tracer.startSpan(name, { attributes });
  const fail = (error: unknown) => {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    span.end();
    throw error;
  };
  try {
    const value = context.with(trace.setSpan(context.active(), span), step);
    if (!isPromise(value)) {
      span.end();
      return value;
    }
    return value.then((settled) => {
      span.end();
      return settled;
    }, fail);
  } catch (error) {
    return fail(error);
  }
}

/** A span around a step Yoga runs (parse, validate, execute); `end` closes it. */
export function startStepSpan(
  name: string,
  attributes?: Attributes,
): { span: Span; end: (error?: unknown) => void } | undefined {
  if (!tracer) return undefined;
  const span = tracer.startSpan(name, { attributes });
  return {
    span,
    end: (error) => {
      if (error) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** Runs `run` with `span` as the active span, so that the spans it starts (Prisma's) are its children. */
export function withSpan<T>(span: Span, run: () => T): T {
  return context.with(trace.setSpan(context.active(), span), run);
}
