import { DEFAULT_SCOPES, type Scope } from '../../contract/scopes.ts';
import type { TrustedDocumentsMode } from '../../contract/trusted-documents.ts';
import { powersOf } from '../../keys/repository.ts';
import { builder } from '../builder.ts';

const ScopeEnum = builder.enumType('Scope', {
  description: `What an API key may do (docs/keys.md). New keys get ${DEFAULT_SCOPES.join(', ')}.`,
  values: {
    read: { description: 'Every query. Every caller has it, even without a key.' },
    orders: { description: 'placeOrder, updateOrder and cancelOrder, on the orders the key placed.' },
    catalog: { description: 'Writes to pets, categories and inventory.' },
    admin: { description: 'Everything: every order, and the key list (apiKeys).' },
  } satisfies Record<Scope, unknown>,
});

const TrustedDocumentsModeEnum = builder.enumType('TrustedDocumentsMode', {
  description: 'Which requests a caller may send (docs/trusted-documents.md).',
  values: {
    off: { description: 'Document text only.' },
    allow: { description: 'Document text, or the documentId of a registered document.' },
    require: { description: 'Only the documentId of a registered document; text is DOCUMENT_NOT_TRUSTED.' },
  } satisfies Record<TrustedDocumentsMode, unknown>,
});

export interface ViewerShape {
  apiKeyId: bigint | null;
  plan: string;
  scopes: readonly Scope[];
  trustedDocuments: TrustedDocumentsMode | null;
  maxSubscriptions: number;
}

export const ViewerType = builder.objectRef<ViewerShape>('Viewer').implement({
  description: 'Who is calling: the API key (its plan and scopes), or an anonymous client on the Free plan.',
  fields: (t) => ({
    apiKeyId: t.expose('apiKeyId', { type: 'Int64', nullable: true, description: 'Null without a key.' }),
    plan: t.exposeString('plan', { description: 'The rate-limit plan (free without a key).' }),
    maxSubscriptions: t.exposeInt('maxSubscriptions', {
      description: "Subscriptions you may keep open at once: your plan's cap, or an enterprise key's own.",
    }),
    scopes: t.field({
      type: [ScopeEnum],
      description: 'What the caller may do; `read` alone without a key.',
      resolve: ({ scopes }) => [...scopes],
    }),
    trustedDocuments: t.field({
      type: TrustedDocumentsModeEnum,
      nullable: true,
      description: "The key's own trusted-documents mode; null: the gateway's (TRUSTED_DOCUMENTS).",
      resolve: ({ trustedDocuments }) => trustedDocuments,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerType,
    description: 'Who you are to the gateway: your key, plan and scopes. `rateLimit` gives your quota.',
    // Each caller's own: the response cache never keeps a result that selects it.
    callerDependent: true,
    // Changes with every request (the quota) or with configuration: never kept, never revalidated.
    cache: 'no-store',
    resolve: (_root, _args, { caller, quota }): ViewerShape => {
      const { maxSubscriptions } = quota;
      return caller.kind === 'key'
        ? {
            apiKeyId: caller.keyId,
            plan: caller.plan,
            scopes: caller.scopes,
            trustedDocuments: caller.trustedDocuments,
            maxSubscriptions,
          }
        : { apiKeyId: null, plan: 'free', scopes: ['read'], trustedDocuments: null, maxSubscriptions };
    },
  }),
);

const ApiKeyType = builder.prismaObject('ApiKey', {
  description: 'An API key, without its secret (only its first characters).',
  fields: (t) => ({
    id: t.expose('id', { type: 'Int64' }),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to tell keys apart.' }),
    plan: t.exposeString('plan'),
    perMinute: t.exposeInt('perMinute', { nullable: true, description: 'Enterprise keys only.' }),
    perDay: t.exposeInt('perDay', { nullable: true, description: 'Enterprise keys only.' }),
    maxSubscriptions: t.exposeInt('maxSubscriptions', {
      nullable: true,
      description: "Enterprise keys only: the key's own cap of open subscriptions; null: the configured one.",
    }),
    scopes: t.field({ type: [ScopeEnum], resolve: (key) => powersOf(key).scopes }),
    trustedDocuments: t.field({
      type: TrustedDocumentsModeEnum,
      nullable: true,
      resolve: (key) => powersOf(key).trustedDocuments,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.prismaField({
    type: [ApiKeyType],
    description: 'Every API key, revoked ones included, in id order. Needs the admin scope.',
    // Not cached: a key revoked or created by the CLI moves no store version the cache could see first.
    scope: 'admin',
    callerDependent: true,
    resolve: (query, _root, _args, { prisma }) =>
      prisma.apiKey.findMany({ ...query, orderBy: { id: 'asc' } }),
  }),
);
