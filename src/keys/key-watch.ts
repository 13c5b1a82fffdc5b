import { parseScopes, type Scope } from '../contract/scopes.ts';
import type { Db } from '../db/client.ts';

/** A key as an open subscription sees it when it checks again: revoked (or gone), or its scopes now. */
export type KeyStanding = { revoked: true } | { revoked: false; scopes: readonly Scope[] };

export interface KeyWatchOptions {
  /** How often the keys of open streams are read again. */
  intervalMs: number;
  log: { warn(details: object, message: string): void };
}

/**
 * Reads the keys that open subscriptions were opened with again, every `intervalMs`, all of them in one query,
 * and tells each stream its key's standing, so that a stream ends soon after its key is revoked or loses a scope it
 * needs: a request is checked once, a stream would otherwise keep what its first request was allowed for ever.
 */
export function createKeyWatch(prisma: Db, { intervalMs, log }: KeyWatchOptions) {
  const watchers = new Map<bigint, Set<(standing: KeyStanding) => void>>();
  let timer: NodeJS.Timeout | undefined;
  let checking = false;

  async function check() {
    if (checking || watchers.size === 0) return;
    checking = true;
    try {
      const rows = await prisma.apiKey.findMany({
        where: { id: { in: [...watchers.keys()] } },
        select: { id: true, revokedAt: true, scopes: true },
      });
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const [id, told] of watchers) {
        const row = byId.get(id);
        const standing: KeyStanding =
          !row || row.revokedAt ? { revoked: true } : { revoked: false, scopes: parseScopes(row.scopes) };
        for (const tell of [...told]) tell(standing);
      }
    } catch (error) {
      log.warn({ err: error }, 'the keys of open subscriptions could not be checked again; next time');
    } finally {
      checking = false;
    }
  }

  return {
    /** Calls `tell` with the key's standing at every check, until the answered function is called. */
    watch(keyId: bigint, tell: (standing: KeyStanding) => void): () => void {
      let told = watchers.get(keyId);
      if (!told) {
        told = new Set();
        watchers.set(keyId, told);
      }
      told.add(tell);
      if (!timer) {
        timer = setInterval(() => void check(), intervalMs);
        timer.unref();
      }
      return () => {
        told.delete(tell);
        if (told.size === 0) watchers.delete(keyId);
        if (watchers.size === 0) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}

export type KeyWatch = ReturnType<typeof createKeyWatch>;
