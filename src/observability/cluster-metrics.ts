// With WORKERS > 1, GET /metrics reaches one worker but describes the whole gateway: the worker asks the
// primary, which gathers every worker's registry with prom-client's AggregatorRegistry (counters, histograms
// and gauges summed, unless a metric's `aggregator` says otherwise) and answers with the text.
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';
import { answerWorkers, askPrimary } from '../cluster/ipc.ts';
import { reuseFor } from './reuse-for.ts';

const CHANNEL = 'petstore:metrics';
// Longer than prom-client's own 5 s wait for the workers' registries, so that its error is the one reported.
const PRIMARY_TIMEOUT_MS = 6000;

/** In a worker: the registry the primary gathers, and a function answering the whole gateway's metrics. */
export function joinClusterMetrics(): { registry: Registry; gatewayMetrics: () => Promise<string> } {
  // Constructing an AggregatorRegistry is what makes prom-client answer the primary's requests in a worker.
  const registry = new AggregatorRegistry<PrometheusContentType>();
  AggregatorRegistry.setRegistries(registry);
  const ask = askPrimary<null, string>(CHANNEL, { timeoutMs: PRIMARY_TIMEOUT_MS });
  return { registry, gatewayMetrics: () => ask(null) };
}

/**
 * In the primary: answers the workers' requests for the whole gateway's metrics; requests within `reuseMs` of
 * the last gathering (from any worker) get its result, so that scrapes spread over the workers gather once.
 */
export function serveClusterMetrics(reuseMs: number): void {
  const aggregator = new AggregatorRegistry();
  const gather = reuseFor(reuseMs, () => aggregator.clusterMetrics());
  answerWorkers(CHANNEL, gather);
}
