import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Limits } from '../contract/plans.ts';
import type { Charge, CounterStore, WindowCount, WindowKind } from './counters/counter.ts';
import { andThen } from './maybe-promise.ts';

export type Policy = 'minute' | 'day';

export interface WindowState {
  policy: Policy;
  limit: number;
  /** Requests left in the window: from 0 to `limit`. */
  remaining: number;
  windowSeconds: number;
  /** When the window resets, in epoch milliseconds. */
  resetsAt: number;
  /** The counter store's id of the window, for giving points back to it alone. */
  id: number;
}

/** The minute window's state and the day window's. */
export type Windows = [minute: WindowState, day: WindowState];

export type Decision = Admitted | Refused;

/** Requests taken from both windows; `windows` says which windows they were taken from. */
export interface Admitted {
  admitted: true;
  points: number;
  windows: Windows;
}

export type Refused = { admitted: false; retryAfterSeconds: number; windows: Windows } & (
  | { code: 'RATE_LIMITED'; refusedBy: WindowState }
  | { code: 'KEY_BANNED' }
);

export interface RateLimiter {
  /**
   * Takes `points` requests of `subject` from its minute and day windows, or refuses them taking nothing (a
   * refusal counts towards a ban instead). Answers at once when the counters are in this process.
   */
  admit(subject: string, limits: Limits, points: number): MaybePromise<Decision>;
  /**
   * Gives `points` of an admission back to the windows they were taken from; answers, for the minute and
   * the day window, whether they landed (not when that window has ended since).
   */
  giveBack(subject: string, paid: Admitted, points: number): MaybePromise<boolean[]>;
  /** The minute and day windows of `subject` as they stand, counting nothing (a ban shows as no minute left). */
  peek(subject: string, limits: Limits): MaybePromise<Windows>;
  /**
   * Counts a refusal made after admission (a per-field limit, a subscription cap) toward the ban, as `admit`
   * counts its own; answers the KEY_BANNED refusal, over `windows`, when this refusal starts the ban.
   */
  countRefusal(subject: string, windows: Windows): MaybePromise<Refused | undefined>;
}

type Config = Pick<RateLimitConfig, 'minuteSeconds' | 'daySeconds' | 'banAfterRefusals' | 'banSeconds'>;

const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * Which of a caller's budgets a limiter counts: the plan's, or introspection's (GraphiQL's schema loads), whose
 * windows, refusals and ban are separate counters of the same store.
 */
export type Budget = 'plan' | 'introspection';

export function createRateLimiter(
  store: CounterStore,
  config: Config,
  { now = Date.now, budget = 'plan' }: { now?: () => number; budget?: Budget } = {},
): RateLimiter {
  // The plans' limits differ per caller, so each take names its limits. A ban is a window of its own,
  // read (0 points) by every admission in the same call as the minute and day windows.
  const prefix = budget === 'plan' ? '' : `${budget}-`;
  const minute: WindowKind = { name: `${prefix}minute`, seconds: config.minuteSeconds };
  const day: WindowKind = { name: `${prefix}day`, seconds: config.daySeconds };
  const refusals: WindowKind = { name: `${prefix}refusals`, seconds: config.minuteSeconds };
  const ban: WindowKind = { name: `${prefix}ban`, seconds: config.banSeconds };
  const checkBan: Charge = { window: ban, points: 0, limit: 0 };
  const countRefusal: Charge[] = [{ window: refusals, points: 1, limit: config.banAfterRefusals }];
  const startBan: Charge[] = [{ window: ban, points: 1, limit: UNLIMITED }];

  function decide(
    subject: string,
    limits: Limits,
    points: number,
    [banned, minuteCount, dayCount]: WindowCount[],
    taken: boolean,
  ): MaybePromise<Decision> {
    const at = now();
    const windows: Windows = [
      windowState('minute', limits.perMinute, minute, minuteCount, at),
      windowState('day', limits.perDay, day, dayCount, at),
    ];
    if (taken) return { admitted: true, points, windows };
    if (banned && banned.count > 0) return banDecision(banned, windows, at);
    const [minuteState, dayState] = windows;
    const minuteOver = (minuteCount?.count ?? 0) + points > limits.perMinute;
    const dayOver = (dayCount?.count ?? 0) + points > limits.perDay;
    // When both windows refuse, the later reset is the one to wait for.
    const refusedBy =
      minuteOver && (!dayOver || minuteState.resetsAt > dayState.resetsAt) ? minuteState : dayState;
    return andThen(refusalCounted(subject, windows, at), (ban): Decision => {
      if (ban) return ban;
      const retryAfterSeconds = seconds(refusedBy.resetsAt - at);
      return { admitted: false, code: 'RATE_LIMITED', refusedBy, retryAfterSeconds, windows };
    });
  }

  /** Past the threshold of refusals in one minute window, a refusal starts a ban: answered as its refusal. */
  function refusalCounted(subject: string, windows: Windows, at: number): MaybePromise<Refused | undefined> {
    return andThen(store.take(subject, countRefusal), (counted) => {
      if (counted.taken) return undefined;
      return andThen(store.take(subject, startBan), (started) =>
        banDecision(started.windows[0] as WindowCount, windows, at),
      );
    });
  }

  return {
    admit(subject, limits, points) {
      const charges: Charge[] = [
        checkBan,
        { window: minute, points, limit: limits.perMinute },
        { window: day, points, limit: limits.perDay },
      ];
      return andThen(store.take(subject, charges), ({ taken, windows }) =>
        decide(subject, limits, points, windows, taken),
      );
    },

    peek(subject, limits) {
      const charges: Charge[] = [
        checkBan,
        { window: minute, points: 0, limit: limits.perMinute },
        { window: day, points: 0, limit: limits.perDay },
      ];
      return andThen(store.take(subject, charges), ({ windows: [banned, minuteCount, dayCount] }) => {
        const at = now();
        const windows: Windows = [
          windowState('minute', limits.perMinute, minute, minuteCount, at),
          windowState('day', limits.perDay, day, dayCount, at),
        ];
        return banned && banned.count > 0 ? banDecision(banned, windows, at).windows : windows;
      });
    },

    giveBack(subject, { windows: [paidMinute, paidDay] }, points) {
      return store.giveBack(subject, [
        { window: minute, id: paidMinute.id, points },
        { window: day, id: paidDay.id, points },
      ]);
    },

    countRefusal(subject, windows) {
      return refusalCounted(subject, windows, now());
    },
  };
}

/**
 * While banned, the minute window shows nothing left until the ban ends, as Retry-After says (and, as no
 * counter's window, takes no refund).
 */
function banDecision(ban: WindowCount, [minute, day]: Windows, at: number): Refused {
  const retryAfterSeconds = seconds(ban.msLeft);
  const bannedMinute = { ...minute, remaining: 0, resetsAt: at + ban.msLeft, id: 0 };
  return { admitted: false, code: 'KEY_BANNED', retryAfterSeconds, windows: [bannedMinute, day] };
}

function windowState(
  policy: Policy,
  limit: number,
  kind: WindowKind,
  counted: WindowCount | undefined,
  at: number,
): WindowState {
  const count = counted?.count ?? 0;
  // No window open yet: the one the next request opens.
  const msLeft = counted?.msLeft || kind.seconds * 1000;
  return {
    policy,
    limit,
    remaining: Math.min(limit, Math.max(0, limit - count)),
    windowSeconds: kind.seconds,
    resetsAt: at + msLeft,
    id: counted?.id ?? 0,
  };
}

/** Whole seconds to wait, at least 1 and never short of `ms`. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The window with fewer requests left; the minute window on a tie. */
export function tightestWindow([minute, day]: Windows): WindowState {
  return day.remaining < minute.remaining ? day : minute;
}
