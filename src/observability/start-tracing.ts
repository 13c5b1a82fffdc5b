import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { Redis } from 'ioredis';
import { setTracer } from './tracing.ts';

// Loaded only when tracing is asked for (process/serve.ts): the SDK stays out of a process that does not trace.

/**
 * Starts tracing for the process: spans go to OTLP over HTTP as the OTEL_EXPORTER_OTLP_* variables say, in
 * batches (or to `exporter` at once: tests); W3C trace context is read from requests; Prisma's queries and
 * every Redis command become spans. Answers a function that flushes and stops it.
 */
export function startTracing(env: NodeJS.ProcessEnv, exporter?: SpanExporter): () => Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'petstore-gateway' }),
    spanProcessors: [
      exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter()),
    ],
  });
  provider.register();
  const prisma = new PrismaInstrumentation();
  prisma.setTracerProvider(provider);
  prisma.enable();
  traceRedisCommands();
  setTracer(provider.getTracer('petstore-gateway'));
  return async () => {
    setTracer(undefined);
    prisma.disable();
    await provider.shutdown();
  };
}

let redisTraced = false;
/**
 * One span per Redis command, as @opentelemetry/instrumentation-ioredis makes them, by wrapping the method
 * every ioredis command goes through; that instrumentation hooks `require`, which an ES module import skips.
 */
function traceRedisCommands(): void {
  if (redisTraced) return;
  redisTraced = true;
  type Command = { name: string; promise: Promise<unknown> };
  const prototype = Redis.prototype as unknown as {
    sendCommand: (command: Command, ...rest: unknown[]) => unknown;
  };
  const send = prototype.sendCommand;
  prototype.sendCommand = function (this: unknown, command: Command, ...rest: unknown[]) {
    const active = trace.getActiveSpan();
    if (!active) return send.call(this, command, ...rest);
    const span: Span = trace.getTracer('petstore-gateway').startSpan(`redis ${command.name}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'redis', 'db.operation.name': command.name },
    });
    command.promise.then(
      () => span.end(),
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        span.end();
      },
    );
    return send.call(this, command, ...rest);
  };
}
