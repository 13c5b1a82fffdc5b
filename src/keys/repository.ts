import { type Limits, PLANS, type Plan, type TablePlan } from '../contract/plans.ts';
import { DEFAULT_SCOPES, parseScopes, type Scope, scopesText } from '../contract/scopes.ts';
import { isTrustedDocumentsMode, type TrustedDocumentsMode } from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import type { ApiKey } from '../generated/sqlite/client.ts';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key.ts';

/** What a key may do, whatever its plan. */
export interface KeyPowers {
  scopes: readonly Scope[];
  /** null: the gateway's TRUSTED_DOCUMENTS. */
  trustedDocuments: TrustedDocumentsMode | null;
}

/**
 * A key that may call the API: table plans take their limits from configuration, enterprise keys carry theirs
 * (and may carry their own cap of open subscriptions; null: the configured Enterprise cap).
 */
export type ActiveKey = KeyPowers &
  (
    | { id: bigint; plan: TablePlan }
    | { id: bigint; plan: 'enterprise'; limits: Limits; maxSubscriptions: number | null }
  );

export interface NewKey {
  plan: Plan;
  name?: string;
  /** Required for enterprise, refused for the other plans. */
  limits?: Limits;
  /** Enterprise only; absent: the configured Enterprise cap. */
  maxSubscriptions?: number;
  /** Default: DEFAULT_SCOPES. */
  scopes?: readonly Scope[];
  trustedDocuments?: TrustedDocumentsMode | null;
}

export async function createApiKey(prisma: Db, input: NewKey): Promise<{ record: ApiKey; key: string }> {
  const key = generateApiKey();
  const record = await prisma.apiKey.create({
    data: {
      name: input.name ?? null,
      prefix: apiKeyPrefix(key),
      hash: hashApiKey(key),
      plan: input.plan,
      perMinute: input.limits?.perMinute ?? null,
      perDay: input.limits?.perDay ?? null,
      maxSubscriptions: input.maxSubscriptions ?? null,
      scopes: scopesText(input.scopes ?? DEFAULT_SCOPES),
      trustedDocuments: input.trustedDocuments ?? null,
    },
  });
  return { record, key };
}

/** Changes a key's scopes or trusted-documents mode; null when there is no such key. */
export async function setKeyPowers(
  prisma: Db,
  id: bigint,
  change: Partial<KeyPowers>,
): Promise<ApiKey | null> {
  const { count } = await prisma.apiKey.updateMany({
    where: { id },
    data: {
      scopes: change.scopes && scopesText(change.scopes),
      trustedDocuments: change.trustedDocuments,
    },
  });
  return count === 1 ? prisma.apiKey.findUnique({ where: { id } }) : null;
}

/** The stored powers of a key, as the gateway reads them. */
export function powersOf(row: Pick<ApiKey, 'scopes' | 'trustedDocuments'>): KeyPowers {
  const mode = row.trustedDocuments;
  return {
    scopes: parseScopes(row.scopes),
    trustedDocuments: mode !== null && isTrustedDocumentsMode(mode) ? mode : null,
  };
}

export function listApiKeys(prisma: Db): Promise<ApiKey[]> {
  return prisma.apiKey.findMany({ orderBy: { id: 'asc' } });
}

/** Revokes a key (once: a second revocation keeps the first date); null when there is no such key. */
export async function revokeApiKey(
  prisma: Db,
  id: bigint,
): Promise<{ key: ApiKey; newlyRevoked: boolean } | null> {
  const { count } = await prisma.apiKey.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const key = await prisma.apiKey.findUnique({ where: { id } });
  return key && { key, newlyRevoked: count === 1 };
}

export async function findActiveKey(prisma: Db, hash: string): Promise<ActiveKey | null> {
  const row = await prisma.apiKey.findUnique({ where: { hash } });
  if (!row || row.revokedAt) return null;
  return toActiveKey(row);
}

function toActiveKey(row: ApiKey): ActiveKey {
  const powers = powersOf(row);
  if (row.plan === 'enterprise' && row.perMinute !== null && row.perDay !== null) {
    const limits = { perMinute: row.perMinute, perDay: row.perDay };
    return { id: row.id, plan: 'enterprise', limits, maxSubscriptions: row.maxSubscriptions, ...powers };
  }
  if (row.plan !== 'enterprise' && (PLANS as readonly string[]).includes(row.plan)) {
    return { id: row.id, plan: row.plan as TablePlan, ...powers };
  }
  throw new Error(`API key ${row.id} has an unusable plan "${row.plan}" (enterprise keys need both limits)`);
}
