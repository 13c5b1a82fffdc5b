import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Caller } from '../contract/caller.ts';
import { apiError } from '../contract/errors.ts';
import type { Limits } from '../contract/plans.ts';
import type { KeyLookup } from '../keys/lookup.ts';
import type { ActiveKey } from '../keys/repository.ts';
import { clientIp } from './client-ip.ts';
import type { Log } from './counters/counter.ts';

/** Whose quota a request draws on. */
export interface Identity {
  caller: Caller;
  /** Whose counters: the key, or the client address for anonymous calls. */
  subject: string;
  limits: Limits;
  /** Open subscriptions the caller may hold at once: its plan's, or an enterprise key's own. */
  maxSubscriptions: number;
  /** The X-API-Key named no active key: the request counts against the client address, then is refused. */
  keyRefused: boolean;
}

export type Identify = (request: Request, socketAddress: string | undefined) => MaybePromise<Identity>;

/**
 * Identifies the caller: an API key's holder (at once when the key is cached), or the client address on the
 * Free plan. A key that names no active key still counts against the client address, as an anonymous call
 * would, so that guessing keys is rate-limited like any other traffic.
 */
export function createIdentify({
  config,
  findKey,
  log,
}: {
  config: Pick<RateLimitConfig, 'plans' | 'trustProxyHops' | 'maxSubscriptions'>;
  findKey: KeyLookup;
  log: Log;
}): Identify {
  function keyLookupFailed(error: unknown): never {
    log.warn({ error: String(error) }, 'API key lookup failed');
    throw apiError('keyLookupUnavailable');
  }

  function anonymous(ip: string, keyRefused: boolean): Identity {
    return {
      caller: { kind: 'anonymous', ip },
      subject: `ip:${ip}`,
      limits: config.plans.free,
      maxSubscriptions: config.maxSubscriptions.free,
      keyRefused,
    };
  }

  function identityOf(key: ActiveKey | null, ip: string): Identity {
    if (!key) return anonymous(ip, true);
    return {
      caller: {
        kind: 'key',
        keyId: key.id,
        plan: key.plan,
        ip,
        scopes: key.scopes,
        trustedDocuments: key.trustedDocuments,
      },
      subject: `key:${key.id}`,
      limits: key.plan === 'enterprise' ? key.limits : config.plans[key.plan],
      maxSubscriptions:
        (key.plan === 'enterprise' ? key.maxSubscriptions : null) ?? config.maxSubscriptions[key.plan],
      keyRefused: false,
    };
  }

  return (request, socketAddress) => {
    const ip = clientIp(request, socketAddress, config.trustProxyHops);
    const presented = request.headers.get('x-api-key');
    if (presented === null) return anonymous(ip, false);
    const key = findKey(presented);
    if (isPromise(key)) return key.then((found) => identityOf(found, ip), keyLookupFailed);
    return identityOf(key, ip);
  };
}
