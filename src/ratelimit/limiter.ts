import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Limits } from '../contract/plans.ts';
import type { CounterState, CounterStore } from './counters.ts';

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

/** The minute window's state and the day window's. */
export type Windows = [minute: WindowState, day: WindowState];

export type Decision =
  | { admitted: true; windows: Windows }
  | ({ admitted: false; retryAfterSeconds: number; windows: Windows } & (
      | { code: 'RATE_LIMITED'; refusedBy: WindowState }
      | { code: 'KEY_BANNED' }
    ));

export interface RateLimiter {
  /**
   * Counts `points` requests of `subject` against its minute and day windows, or refuses them without
   * counting them. `held` is what the same HTTP request consumed before (the first operation of a
   * batch); a refusal gives that back too, so that a refused request consumes nothing. Answers at once
   * when the counters are in this process and the request is admitted.
   */
  consume(subject: string, limits: Limits, points: number, held?: number): MaybePromise<Decision>;
  /** Gives back points consumed by an operation that was refused later (by a per-field limit). */
  release(subject: string, points: number): Promise<void>;
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

  function decide(
    subject: string,
    limits: Limits,
    points: number,
    held: number,
    [minuteCount, dayCount]: [CounterState, CounterState],
  ): MaybePromise<Decision> {
    const minuteOver = minuteCount.consumedPoints > limits.perMinute;
    const dayOver = dayCount.consumedPoints > limits.perDay;
    const refused = minuteOver || dayOver;
    const released = refused ? points + held : 0;
    const now = Date.now();
    const minuteState = windowState(
      'minute',
      limits.perMinute,
      config.minuteSeconds,
      minuteCount,
      released,
      now,
    );
    const dayState = windowState('day', limits.perDay, config.daySeconds, dayCount, released, now);
    const windows: Windows = [minuteState, dayState];
    if (!refused) return { admitted: true, windows };
    // When both windows refuse, the later reset is the one to wait for.
    const refusedBy =
      minuteOver && (!dayOver || minuteState.resetsAt > dayState.resetsAt) ? minuteState : dayState;
    return refuse(subject, released, { refusedBy, windows, now });
  }

  async function refuse(
    subject: string,
    released: number,
    { refusedBy, windows, now }: { refusedBy: WindowState; windows: Windows; now: number },
  ): Promise<Decision> {
    await Promise.all([minute.reward(subject, released), day.reward(subject, released)]);
    const ban = await refusals.get(subject);
    if (ban && ban.consumedPoints > config.banAfterRefusals) {
      return { admitted: false, code: 'KEY_BANNED', retryAfterSeconds: seconds(ban.msBeforeNext), windows };
    }
    try {
      await refusals.consume(subject);
    } catch (banStarted) {
      if (!(banStarted instanceof RateLimiterRes)) throw banStarted;
      // For the ban, the minute counter is held above any limit: every gateway then refuses the
      // caller on its first counter, and admitted requests never need to look the ban up.
      await minute.set(subject, BANNED_COUNT, config.banSeconds);
      return {
        admitted: false,
        code: 'KEY_BANNED',
        retryAfterSeconds: seconds(banStarted.msBeforeNext),
        windows,
      };
    }
    return {
      admitted: false,
      code: 'RATE_LIMITED',
      refusedBy,
      retryAfterSeconds: seconds(refusedBy.resetsAt - now),
      windows,
    };
  }

  return {
    async release(subject, points) {
      await Promise.all([minute.reward(subject, points), day.reward(subject, points)]);
    },

    consume(subject, limits, points, held = 0) {
      const minuteCount = minute.penalty(subject, points);
      const dayCount = day.penalty(subject, points);
      if (!isPromise(minuteCount) && !isPromise(dayCount)) {
        return decide(subject, limits, points, held, [minuteCount, dayCount]);
      }
      return Promise.all([minuteCount, dayCount]).then((counts) =>
        decide(subject, limits, points, held, counts),
      );
    },
  };
}

const BANNED_COUNT = 2 ** 40;

function windowState(
  policy: Policy,
  limit: number,
  windowSeconds: number,
  counted: CounterState,
  released: number,
  now: number,
): WindowState {
  const remaining = Math.max(0, limit - (counted.consumedPoints - released));
  return { policy, limit, remaining, windowSeconds, resetsAt: now + counted.msBeforeNext };
}

/** Whole seconds to wait, at least 1 and never short of `ms`. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The window with fewer requests left; the minute window on a tie. */
export function tightestWindow([minute, day]: Windows): WindowState {
  return day.remaining < minute.remaining ? day : minute;
}
