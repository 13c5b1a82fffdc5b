import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';

// /metrics cannot starve the API: scrapes close together share one gathering, and METRICS_PORT moves them to
// a listener of their own.

/** The value of a sample without labels. */
const sample = (text: string, name: string) =>
  Number(
    text
      .split('\n')
      .find((line) => line.startsWith(`${name} `))
      ?.slice(name.length + 1),
  );

describe('scrapes within METRICS_REUSE_MS of a gathering', () => {
  let clock = 1_000_000;
  const app = useTestApp({ http: true, env: { METRICS_REUSE_MS: '1000' }, now: () => clock });

  const scrape = async () => {
    const response = await fetch(`${app.url}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  it('get its result: 20 concurrent scrapes gather once, and the next gathering comes once the time is up', async () => {
    const first = await scrape();
    const gathered = sample(first, 'petstore_metrics_gatherings_total');
    expect(gathered).toBeGreaterThanOrEqual(1);

    clock += 1000;
    const burst = await Promise.all(Array.from({ length: 20 }, scrape));
    expect(new Set(burst.map((text) => sample(text, 'petstore_metrics_gatherings_total')))).toEqual(
      new Set([gathered + 1]),
    );
    // Still within the interval: the same result, though requests were answered since.
    clock += 999;
    expect(await scrape()).toBe(burst[0]);

    clock += 1;
    expect(sample(await scrape(), 'petstore_metrics_gatherings_total')).toBe(gathered + 2);
  });
});

describe('METRICS_PORT', () => {
  let gateway: GatewayProcess | undefined;
  afterEach(() => gateway?.cleanUp());

  it('serves /metrics on its own port, and only there', async () => {
    gateway = await startGatewayProcess({ METRICS_PORT: '0', LOG_LEVEL: 'info' });
    const line = await gateway.logLine((entry) => entry.msg.startsWith('Prometheus metrics:'));
    const metricsUrl = line.msg.replace(/^Prometheus metrics:\s+/, '');
    expect(new URL(metricsUrl).port).not.toBe(String(gateway.port));

    const metrics = await fetch(metricsUrl);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('petstore_http_requests_total');

    const onApiPort = await fetch(`${gateway.url}/metrics`);
    expect(onApiPort.status).toBe(404);
    expect(await onApiPort.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    // The metrics port serves nothing else.
    const elsewhere = await fetch(new URL('/pets', metricsUrl));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await fetch(`${gateway.url}/pets`)).status).toBe(200);
  });
});
