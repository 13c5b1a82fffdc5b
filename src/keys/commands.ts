import { parseCommandLine, splitCommand, UsageError, usageText } from '../cli/command-line.ts';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import { type Limits, PLANS, type Plan, type TablePlan } from '../contract/plans.ts';
import { DEFAULT_SCOPES, parseScopes, SCOPES, type Scope } from '../contract/scopes.ts';
import {
  isTrustedDocumentsMode,
  TRUSTED_DOCUMENTS_MODES,
  type TrustedDocumentsMode,
} from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import type { ApiKey } from '../generated/sqlite/client.ts';
import { createUsageCounter, type UsageSeriesPoint } from '../usage/counts.ts';
import { openUsageStore } from '../usage/open.ts';
import {
  createApiKey,
  type KeyPowers,
  listApiKeys,
  powersOf,
  revokeApiKey,
  setKeyPowers,
} from './repository.ts';

const MODES = [...TRUSTED_DOCUMENTS_MODES, 'default'].join('|');

export const USAGE = usageText(
  'apikey',
  [
    {
      args: [
        `create --plan <${PLANS.join('|')}> [--per-minute N --per-day N] [--max-subscriptions N]`,
        `       [--name TEXT] [--scopes ${SCOPES.join(',')}] [--trusted-documents <${MODES}>]`,
      ],
      about: [
        'Prints the new key alone on the last line. --per-minute and --per-day are for enterprise keys (both required).',
        "--max-subscriptions: an enterprise key's cap of open subscriptions (default: MAX_SUBSCRIPTIONS' enterprise).",
        `--scopes: what the key may do (default ${DEFAULT_SCOPES.join(',')}; read is always included).`,
        "--trusted-documents: which requests it may send (default: the gateway's TRUSTED_DOCUMENTS).",
      ],
    },
    {
      args: `set <id> [--scopes LIST] [--trusted-documents <${MODES}>]`,
      about: [
        "Changes a key's powers; gateways apply it within their key cache time (API_KEY_CACHE_TTL_MS).",
      ],
    },
    { args: 'list' },
    { args: 'revoke <id>' },
    {
      args: 'usage <id>',
      about: [
        "A key's requests and refusals over the last hour and 7 days and its top operations (docs/usage.md).",
      ],
    },
  ],
  ["The database is DATABASE_URL's (default: the embedded SQLite file)."],
);

export type ApiKeyCommand =
  | {
      command: 'create';
      plan: Plan;
      limits?: Limits;
      maxSubscriptions?: number;
      name?: string;
      scopes?: Scope[];
      trustedDocuments?: TrustedDocumentsMode | null;
    }
  | { command: 'set'; id: bigint; change: Partial<KeyPowers> }
  | { command: 'list' }
  | { command: 'revoke'; id: bigint }
  | { command: 'usage'; id: bigint };

const COMMANDS = ['create', 'set', 'list', 'revoke', 'usage'] as const;

const OPTIONS = {
  plan: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  'max-subscriptions': { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  'trusted-documents': { type: 'string' },
} as const;

export function parseApiKeyCommand(argv: string[]): ApiKeyCommand {
  const [command, rest] = splitCommand(argv, COMMANDS);
  const { values, positionals } = parseCommandLine(rest, OPTIONS);
  const powers = powersOption(values);
  if (command === 'create') {
    if (positionals.length > 0) throw new UsageError(`create takes no argument "${positionals[0]}"`);
    const plan = values.plan;
    if (!isPlan(plan))
      throw new UsageError(`--plan must be one of ${PLANS.join(', ')} (got ${plan ?? 'nothing'})`);
    const perMinute = values['per-minute'];
    const perDay = values['per-day'];
    const maxSubscriptions = values['max-subscriptions'];
    if (values.name !== undefined && values.name.trim() === '')
      throw new UsageError('--name must not be empty');
    const name = values.name?.trim();
    if (plan !== 'enterprise') {
      if (perMinute !== undefined || perDay !== undefined) {
        throw new UsageError(
          `--per-minute and --per-day are for enterprise keys; ${plan} keys have the plan's limits`,
        );
      }
      if (maxSubscriptions !== undefined) {
        throw new UsageError(
          `--max-subscriptions is for enterprise keys; ${plan} keys have the plan's cap (MAX_SUBSCRIPTIONS)`,
        );
      }
      return { command, plan, name, ...powers };
    }
    if (perMinute === undefined || perDay === undefined) {
      throw new UsageError('an enterprise key needs both --per-minute and --per-day');
    }
    return {
      command,
      plan,
      name,
      limits: { perMinute: count('--per-minute', perMinute), perDay: count('--per-day', perDay) },
      ...(maxSubscriptions !== undefined && {
        maxSubscriptions: count('--max-subscriptions', maxSubscriptions),
      }),
      ...powers,
    };
  }
  if (command === 'set') {
    const id = oneId(positionals, 'set');
    const others = Object.keys(values).filter((name) => name !== 'scopes' && name !== 'trusted-documents');
    if (others.length > 0)
      throw new UsageError(`set takes only --scopes and --trusted-documents (got --${others[0]})`);
    if (Object.keys(powers).length === 0) throw new UsageError('set needs --scopes or --trusted-documents');
    return { command, id, change: powers };
  }
  if (command === 'list') {
    if (positionals.length > 0 || Object.keys(values).length > 0)
      throw new UsageError('list takes no arguments');
    return { command };
  }
  if (command === 'revoke') {
    if (Object.keys(values).length > 0) throw new UsageError('revoke takes only the id of a key');
    return { command, id: oneId(positionals, 'revoke') };
  }
  if (Object.keys(values).length > 0) throw new UsageError('usage takes only the id of a key');
  return { command, id: oneId(positionals, 'usage') };
}

/** The configuration a command shows keys' limits from: the plan table and the subscription caps. */
export type KeyLimitsConfig = Pick<
  RateLimitConfig,
  'plans' | 'maxSubscriptions' | 'redisUrl' | 'redisKeyPrefix' | 'redisCommandTimeoutMs'
>;

/** Runs a command; answers the lines to print. Throws an Error whose message is for the user. */
export async function runApiKeyCommand(
  command: ApiKeyCommand,
  prisma: Db,
  config: KeyLimitsConfig,
): Promise<string[]> {
  if (command.command === 'create') {
    const { record, key } = await createApiKey(prisma, command);
    const { cap, configured } = subscriptionCap(record, config);
    const subscriptions = `${cap} open subscriptions${configured ? ' (the configured cap)' : ''}`;
    return [
      `Created API key ${record.id} (${command.plan}: ${limitsText(record, config.plans)}, ${subscriptions}; ` +
        `${powersText(record)}). It is shown only now; store it.`,
      key,
    ];
  }
  if (command.command === 'set') {
    const key = await setKeyPowers(prisma, command.id, command.change);
    if (!key) throw new Error(`There is no API key ${command.id} (see \`list\`)`);
    return [
      `API key ${key.id} now has ${powersText(key)}. Gateways apply it within their key cache time ` +
        '(API_KEY_CACHE_TTL_MS, 5 s by default).',
    ];
  }
  if (command.command === 'list') {
    const keys = await listApiKeys(prisma);
    if (keys.length === 0)
      return ['No API keys yet. Create one with: npm run --silent apikey -- create --plan free'];
    return table([
      [
        'ID',
        'NAME',
        'PREFIX',
        'PLAN',
        'LIMITS',
        'SUBSCRIPTIONS',
        'SCOPES',
        'TRUSTED DOCUMENTS',
        'CREATED',
        'REVOKED',
      ],
      ...keys.map((key) => [
        String(key.id),
        key.name ?? '-',
        `${key.prefix}…`,
        key.plan,
        limitsText(key, config.plans),
        subscriptionsCell(key, config),
        powersOf(key).scopes.join(','),
        powersOf(key).trustedDocuments ?? 'default',
        key.createdAt.toISOString(),
        key.revokedAt?.toISOString() ?? '-',
      ]),
    ]);
  }
  if (command.command === 'usage') return usageLines(prisma, command.id, config);
  const revoked = await revokeApiKey(prisma, command.id);
  if (!revoked) throw new Error(`There is no API key ${command.id} (see \`list\`)`);
  const { key, newlyRevoked } = revoked;
  if (!newlyRevoked) return [`API key ${key.id} was already revoked at ${key.revokedAt?.toISOString()}.`];
  return [
    `Revoked API key ${key.id} (${key.prefix}…). Gateways refuse it within their key cache time ` +
      '(API_KEY_CACHE_TTL_MS, 5 s by default).',
  ];
}

const isPlan = (value: string | undefined): value is Plan =>
  (PLANS as readonly string[]).includes(value ?? '');

/** --scopes and --trusted-documents, as far as given. `default`: the gateway's TRUSTED_DOCUMENTS. */
function powersOption(values: { scopes?: string; 'trusted-documents'?: string }): {
  scopes?: Scope[];
  trustedDocuments?: TrustedDocumentsMode | null;
} {
  const powers: { scopes?: Scope[]; trustedDocuments?: TrustedDocumentsMode | null } = {};
  if (values.scopes !== undefined) {
    try {
      powers.scopes = parseScopes(values.scopes);
    } catch (error) {
      throw new UsageError(`--scopes: ${(error as Error).message}`);
    }
  }
  const mode = values['trusted-documents'];
  if (mode !== undefined) {
    if (mode !== 'default' && !isTrustedDocumentsMode(mode)) {
      throw new UsageError(`--trusted-documents must be one of ${MODES.replaceAll('|', ', ')} (got ${mode})`);
    }
    powers.trustedDocuments = mode === 'default' ? null : mode;
  }
  return powers;
}

function oneId(positionals: string[], command: string): bigint {
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0 || !/^\d+$/.test(id)) {
    throw new UsageError(`${command} takes the id of one key (see \`list\`)`);
  }
  return BigInt(id);
}

function powersText(key: Pick<ApiKey, 'scopes' | 'trustedDocuments'>): string {
  const { scopes, trustedDocuments } = powersOf(key);
  return `scopes ${scopes.join(',')}, trusted documents ${trustedDocuments ?? "the gateway's default"}`;
}

// The key's limits are 32-bit integer columns.
const MAX_COUNT = 2_147_483_647;

function count(option: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_COUNT) {
    throw new UsageError(`${option} must be a whole number from 1 to ${MAX_COUNT} (got ${value})`);
  }
  return Number(value);
}

function limitsText(
  key: Pick<ApiKey, 'plan' | 'perMinute' | 'perDay'>,
  plans: Record<TablePlan, Limits>,
): string {
  const limits =
    key.perMinute !== null && key.perDay !== null
      ? { perMinute: key.perMinute, perDay: key.perDay }
      : plans[key.plan as TablePlan];
  return limits ? `${limits.perMinute}/minute, ${limits.perDay}/day` : 'no limits set';
}

/**
 * How many subscriptions the key may keep open (as the gateway reads it: ratelimit/identify.ts), and whether that
 * is the configured cap of an enterprise key without its own (which follows MAX_SUBSCRIPTIONS when it changes).
 */
function subscriptionCap(
  key: Pick<ApiKey, 'plan' | 'maxSubscriptions'>,
  config: KeyLimitsConfig,
): { cap: number | undefined; configured: boolean } {
  if (key.plan === 'enterprise' && key.maxSubscriptions !== null) {
    return { cap: key.maxSubscriptions, configured: false };
  }
  return { cap: config.maxSubscriptions[key.plan as Plan], configured: key.plan === 'enterprise' };
}

function subscriptionsCell(key: Pick<ApiKey, 'plan' | 'maxSubscriptions'>, config: KeyLimitsConfig): string {
  const { cap, configured } = subscriptionCap(key, config);
  if (cap === undefined) return '-';
  return configured ? `${cap} (configured)` : String(cap);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** `usage <id>`: what the key's usage page shows, but the quota left (the gateways' counters hold it). */
async function usageLines(prisma: Db, id: bigint, config: KeyLimitsConfig): Promise<string[]> {
  const key = await prisma.apiKey.findUnique({ where: { id } });
  if (!key) throw new Error(`There is no API key ${id} (see \`list\`)`);
  const counter = createUsageCounter(openUsageStore(prisma, config));
  const { minutes, hours, topOperations } = await counter.read(id).finally(() => counter.close());
  const sum = (points: UsageSeriesPoint[], pick: (point: UsageSeriesPoint) => number) =>
    points.reduce((total, point) => total + pick(point), 0);
  const refusals = (points: UsageSeriesPoint[]) => {
    const kinds = new Map<string, number>();
    for (const point of points)
      for (const [kind, count] of Object.entries(point.refused))
        kinds.set(kind, (kinds.get(kind) ?? 0) + count);
    const text = [...kinds].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none';
    return `429: ${text}; other 4xx: ${sum(points, (p) => p.clientErrors)}; 5xx: ${sum(points, (p) => p.serverErrors)}`;
  };
  const lines = [
    `API key ${key.id} (${key.name ?? 'no name'}, ${key.prefix}…, ${key.plan}):`,
    `  last hour:   ${sum(minutes, (p) => p.requests)} requests (${refusals(minutes)})`,
    `  last 7 days: ${sum(hours, (p) => p.requests)} requests (${refusals(hours)})`,
  ];
  if (topOperations.length > 0) {
    lines.push('Top operations, last 7 days:');
    lines.push(
      ...table(
        topOperations.map(({ api, operation, requests }) => [`  ${api}`, operation, String(requests)]),
      ),
    );
  }
  const active = minutes.filter((point) => point.requests > 0);
  if (active.length > 0) {
    lines.push('Minutes of the last hour with requests (UTC):');
    for (const point of active) {
      const at = new Date(point.startsAt).toISOString().slice(11, 16);
      lines.push(`  ${at}  ${point.requests} requests (${refusals([point])})`);
    }
  }
  return lines;
}
