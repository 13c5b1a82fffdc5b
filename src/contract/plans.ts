// The plans a key can have. Enterprise limits are agreed per key and stored on the key itself; the other
// plans take theirs from the plan table, configuration with the spec's numbers as defaults.
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export type TablePlan = Exclude<Plan, 'enterprise'>;

export interface Limits {
  perMinute: number;
  perDay: number;
}

export const DEFAULT_PLANS: Record<TablePlan, Limits> = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1000, perDay: 100_000 },
};
