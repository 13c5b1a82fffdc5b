import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Limits } from '../keys/plans.ts';
import type { RateLimitConfig } from './config.ts';
import type { CounterStore } from './counters.ts';

export type Policy = 'minute' | 'day';

export interface WindowState {
  policy: Policy;
  limit: number;
  /** Requests left in the window, never negative. */
  remaining: number;
  windowSeconds: number;
  /** When the window resets, in epoch milliseconds. */
  resetsAt: number;
}

export type Decision =
  | { admitted: true; windows: WindowState[] }
  | {
      admitted: false;
      code: 'RATE_LIMITED' | 'KEY_BANNED';
      retryAfterSeconds: number;
      /** The window that refused (the ban, for KEY_BANNED). */
      refusedBy: Policy | 'ban';
      windows: WindowState[];
    };

export interface RateLimiter {
  /**
   * Counts `points` requests of `subject` against its minute and day windows, or refuses them without
   * counting them. `held` is what the same HTTP request consumed before (the first operation of a
   * batch); a refusal gives that back too, so that a refused request consumes nothing.
   */
  consume(subject: string, limits: Limits, points: number, held?: number): Promise<Decision>;
}

type Config = Pick<RateLimitConfig, 'minuteSeconds' | 'daySeconds' | 'banAfterRefusals' | 'banSeconds'>;

export function createRateLimiter(store: CounterStore, config: Config): RateLimiter {
  // Limits differ per key, while a rate-limiter-flexible limiter compares against one fixed `points`.
  // So the two windows are plain atomic counters (penalty = increment, reward = decrement) and the
  // comparison with the caller's own limits is made here. rate-limiter-flexible counts a refused
  // consume like an admitted one (its increment is unconditional), so a refusal is undone with a
  // reward. Concurrent requests can then only see a count that is briefly too high (a spurious refusal
  // right at the limit while others are being refused), never one too low: no more than the limit
  // is ever admitted.
  const minute = store.limiter({ name: 'minute', points: 0, windowSeconds: config.minuteSeconds });
  const day = store.limiter({ name: 'day', points: 0, windowSeconds: config.daySeconds });
  // Refusals per minute window; the one that goes past the threshold blocks the key for the ban.
  const refusals = store.limiter({
    name: 'refusals',
    points: config.banAfterRefusals,
    windowSeconds: config.minuteSeconds,
    blockSeconds: config.banSeconds,
  });

  return {
    async consume(subject, limits, points, held = 0) {
      const [ban, minuteCount, dayCount] = await Promise.all([
        refusals.get(subject),
        minute.penalty(subject, points),
        day.penalty(subject, points),
      ]);
      const counted = [
        { policy: 'minute' as const, limit: limits.perMinute, windowSeconds: config.minuteSeconds, res: minuteCount },
        { policy: 'day' as const, limit: limits.perDay, windowSeconds: config.daySeconds, res: dayCount },
      ];
      const over = counted.filter((w) => w.res.consumedPoints > w.limit);
      const banned = ban !== null && ban.consumedPoints > config.banAfterRefusals;
      const now = Date.now();
      const windowsAfter = (released: number): WindowState[] =>
        counted.map(({ res, ...w }) => ({
          ...w,
          remaining: Math.max(0, w.limit - (res.consumedPoints - released)),
          resetsAt: now + res.msBeforeNext,
        }));
      if (!banned && over.length === 0) return { admitted: true, windows: windowsAfter(0) };

      const released = points + held;
      await Promise.all([minute.reward(subject, released), day.reward(subject, released)]);
      const windows = windowsAfter(released);
      if (banned) return refusal('KEY_BANNED', 'ban', ban.msBeforeNext, windows);

      const banStarted = await refusals.consume(subject).then(
        () => null,
        (rejection: unknown) => {
          if (rejection instanceof RateLimiterRes) return rejection;
          throw rejection;
        },
      );
      if (banStarted) return refusal('KEY_BANNED', 'ban', banStarted.msBeforeNext, windows);
      const latest = over.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a));
      return refusal('RATE_LIMITED', latest.policy, latest.res.msBeforeNext, windows);
    },
  };
}

function refusal(
  code: 'RATE_LIMITED' | 'KEY_BANNED',
  refusedBy: Policy | 'ban',
  msBeforeNext: number,
  windows: WindowState[],
): Decision {
  return { admitted: false, code, refusedBy, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)), windows };
}

/** The window with fewer requests left; the minute window on a tie. */
export function tightestWindow(windows: WindowState[]): WindowState {
  return windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}
