// docs/metrics.md names every metric /metrics exposes and every value of the `operation` label that is not an
// operation's own name: a new metric or label value must be documented to pass.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ROUTES } from '../../src/rest/routes.ts';
import { useTestApp } from '../support/app.ts';

const page = readFileSync(resolve(import.meta.dirname, '../../docs/metrics.md'), 'utf8');

const app = useTestApp();

it('documents every metric and every operation label value', async () => {
  // One request of each kind the labels tell apart.
  await app.graphql('query Named { categories { edges { cursor } } }');
  await app.graphql('{ categories { edges { cursor } } }');
  await app.postGraphQL(JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]), {
    key: null,
  });
  await app.postGraphQL('{ not json', { key: null });
  await (await app.fetch(`/graphql`, { headers: { accept: 'text/html' } })).text();
  await app.fetch(`/pets`);
  await app.fetch(`/pets/1/owners`);
  await app.fetch(`/healthz`);
  await app.fetch(`/metrics`);

  const text = await (await app.fetch(`/metrics`)).text();
  const metrics = [...text.matchAll(/^# TYPE (\w+) /gm)].map(([, name]) => name as string);
  expect(metrics.length).toBeGreaterThan(20);
  expect(metrics.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);

  const operations = new Set([...text.matchAll(/operation="([^"]*)"/g)].map(([, value]) => value as string));
  const ownNames = new Set(['Named', ...ROUTES.map((route) => route.operationId)]);
  const special = [...operations].filter((value) => !ownNames.has(value) && !value.startsWith('/'));
  expect(special.sort()).toEqual(['anonymous', 'batch', 'graphiql', 'unknown', 'unmatched']);
  expect(special.filter((value) => !page.includes(`\`${value}\``))).toEqual([]);
  expect(page).toContain('`other`: past 200 distinct operation names');
});
