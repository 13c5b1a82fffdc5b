import type { UsageCounts, UsageSeriesPoint } from '../../usage/counts.ts';
import { builder } from '../builder.ts';
import { ViewerType } from './keys.ts';

const RefusalCountType = builder.objectRef<{ kind: string; count: number }>('RefusalCount').implement({
  description: 'Requests refused 429 for one reason.',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description:
        '`minute`, `day`, `banned`, `introspection`, or `operation` (a per-field limit or the subscription cap).',
    }),
    count: t.exposeInt('count'),
  }),
});

const UsagePointType = builder.objectRef<UsageSeriesPoint>('UsagePoint').implement({
  description: "One minute's or one hour's requests of your key, refusals included.",
  fields: (t) => ({
    startsAt: t.field({ type: 'DateTime', resolve: ({ startsAt }) => new Date(startsAt) }),
    requests: t.exposeInt('requests', { description: 'Every answered request, refused or not.' }),
    refused: t.field({
      type: [RefusalCountType],
      description: '429s, by reason.',
      resolve: ({ refused }) => Object.entries(refused).map(([kind, count]) => ({ kind, count })),
    }),
    clientErrors: t.exposeInt('clientErrors', { description: '4xx answers other than 429.' }),
    serverErrors: t.exposeInt('serverErrors', { description: '5xx answers.' }),
  }),
});

const OperationUsageType = builder
  .objectRef<UsageCounts['topOperations'][number]>('OperationUsage')
  .implement({
    description: 'One operation and how often your key ran it.',
    fields: (t) => ({
      api: t.exposeString('api', { description: '`graphql` or `rest`.' }),
      operation: t.exposeString('operation', {
        description: 'The GraphQL operation name or REST operationId.',
      }),
      requests: t.exposeInt('requests'),
    }),
  });

const UsageType = builder.objectRef<UsageCounts>('Usage').implement({
  description:
    "Your key's requests, as the usage page shows them (docs/usage.md); `rateLimit` gives the quota left.",
  fields: (t) => ({
    minutes: t.field({
      type: [UsagePointType],
      description: 'The last hour, a point per minute, oldest first (the last one is the current minute).',
      resolve: ({ minutes }) => minutes,
    }),
    hours: t.field({
      type: [UsagePointType],
      description: 'The last 7 days, a point per hour, oldest first.',
      resolve: ({ hours }) => hours,
    }),
    topOperations: t.field({
      type: [OperationUsageType],
      description: 'The 10 operations of the last 7 days your key ran most, most first.',
      resolve: ({ topOperations }) => topOperations,
    }),
  }),
});

builder.objectField(ViewerType, 'usage', (t) =>
  t.field({
    type: UsageType,
    nullable: true,
    description: "Your key's requests and refusals over the last hour and week; null without a key.",
    resolve: ({ apiKeyId }, _args, { readUsage }) =>
      apiKeyId === null || !readUsage ? null : readUsage(apiKeyId),
  }),
);
