// The plans a key can have. Enterprise limits are agreed per key and stored on the key itself;
// the other plans take theirs from the rate-limit configuration's plan table.
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export type TablePlan = Exclude<Plan, 'enterprise'>;

export interface Limits {
  perMinute: number;
  perDay: number;
}
