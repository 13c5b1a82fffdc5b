import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

// Every scrape gathers afresh: the tests compare scrapes taken one after the other.
const app = useTestApp({ env: { METRICS_REUSE_MS: '0' } });

async function scrape(): Promise<string> {
  const response = await app.fetch(`/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample, by metric name and its exact labels; 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const selector = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .join(',');
  const series = selector ? `${name}{${selector}} ` : `${name} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(series));
  return line ? Number(line.slice(series.length)) : 0;
}

it('counts each request and its latency by API, operation and status', async () => {
  const labels = { api: 'graphql', operation: 'MetricsProbe', status: '200' };
  const before = await scrape();
  const answer = await app.graphql('query MetricsProbe { categories { edges { cursor } } }');
  expect(answer.status).toBe(200);
  const after = await scrape();

  expect(sample(after, 'petstore_http_requests_total', labels)).toBe(
    sample(before, 'petstore_http_requests_total', labels) + 1,
  );
  expect(sample(after, 'petstore_http_request_duration_seconds_count', labels)).toBe(
    sample(before, 'petstore_http_request_duration_seconds_count', labels) + 1,
  );
  expect(sample(after, 'petstore_http_request_duration_seconds_sum', labels)).toBeGreaterThan(
    sample(before, 'petstore_http_request_duration_seconds_sum', labels),
  );
  // The scrape before this one is counted too, as an operational request.
  expect(
    sample(after, 'petstore_http_requests_total', { api: 'ops', operation: '/metrics', status: '200' }),
  ).toBe(
    sample(before, 'petstore_http_requests_total', { api: 'ops', operation: '/metrics', status: '200' }) + 1,
  );
});

it('reports the database: the PostgreSQL pool, or the size of the SQLite files', async () => {
  await app.graphql('{ __typename }');
  const text = await scrape();
  if (app.database.target.provider === 'postgresql') {
    expect(sample(text, 'petstore_db_pool_max')).toBe(app.database.target.poolSize);
    const open =
      sample(text, 'petstore_db_pool_connections', { state: 'in_use' }) +
      sample(text, 'petstore_db_pool_connections', { state: 'idle' });
    expect(open).toBeGreaterThan(0);
    expect(text).toContain('petstore_db_pool_waiting 0');
  } else {
    expect(sample(text, 'petstore_db_sqlite_bytes', { file: 'database' })).toBeGreaterThan(0);
  }
});

it("exposes Node's process metrics and the rate-limit refusal counter", async () => {
  const text = await scrape();
  expect(text).toContain('# TYPE process_cpu_seconds_total counter');
  expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  expect(text).toContain('# TYPE petstore_rate_limit_refusals_total counter');
});
