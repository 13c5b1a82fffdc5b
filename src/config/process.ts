import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { wholeNumber } from './values.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The process: its mode, its log, how many serving processes, how long a stop may take. */
export const processPart = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).optional(),
    LOG_FORMAT: z.enum(LOG_FORMATS, `must be one of ${LOG_FORMATS.join(', ')}`).optional(),
    WORKERS: z
      .string()
      .regex(/^([1-9]\d*|auto)$/, 'must be a whole number >= 1, or auto (one per CPU)')
      .transform((workers) => (workers === 'auto' ? availableParallelism() : Number(workers)))
      .default(1),
    SHUTDOWN_TIMEOUT_MS: wholeNumber({ min: 1, unit: 'milliseconds' }).default(10_000),
    SHUTDOWN_DELAY_MS: wholeNumber({ min: 0, unit: 'milliseconds' }).default(0),
    // OpenTelemetry's own variables; the SDK reads the rest (endpoint, headers, service name) itself.
    OTEL_SDK_DISABLED: z.string().optional(),
    OTEL_TRACES_EXPORTER: z.string().optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  })
  .transform((env) => ({
    production: env.NODE_ENV === 'production',
    // Tests start many gateways in one process: their request logs stay off unless asked for.
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    /** Unset: readable lines when stdout is a terminal, JSON otherwise (observability/logger.ts decides). */
    logFormat: env.LOG_FORMAT,
    /** Serving processes: 1 serves in this process; more makes it a node:cluster primary of that many workers. */
    workers: env.WORKERS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** On SIGTERM, how long to keep serving with /readyz at 503 before draining (see docs/deploy.md). */
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    /** OpenTelemetry tracing (docs/tracing.md): on when the OTEL_* variables name an OTLP exporter. */
    tracing: tracingWanted(env),
  }));

function tracingWanted(env: {
  OTEL_SDK_DISABLED?: string;
  OTEL_TRACES_EXPORTER?: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
}): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim());
  if (exporters.includes('none')) return false;
  return (
    exporters.includes('otlp') ||
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}
