import { serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp({ http: true });

describe('GraphQL over HTTP: every MUST of graphql-http auditServer', () => {
  const audits = serverAudits({
    url: () => `${app.url}/graphql`,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('x-api-key', app.apiKey);
      return fetch(input, { ...init, headers });
    },
  });
  for (const audit of audits.filter((a) => a.name.startsWith('MUST'))) {
    it(audit.name, async () => {
      const result = await audit.fn();
      expect(result.status, 'reason' in result ? result.reason : '').toBe('ok');
    });
  }
});

describe('operational endpoints', () => {
  it('/healthz says the process is up', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database', async () => {
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
  });

  it('GET /graphql with a query works', async () => {
    const response = await fetch(
      `${app.url}/graphql?query=${encodeURIComponent('{ categories { edges { node { id } } } }')}`,
      {
        headers: { accept: 'application/graphql-response+json' },
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { categories: { edges: [] } } });
  });
});
