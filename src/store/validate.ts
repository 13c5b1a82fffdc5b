import { invalid } from '../contract/errors.ts';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_QUANTITY = 1_000_000;

export function requireText(field: string, value: string, max = MAX_NAME_LENGTH): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalid(field, 'must not be empty');
  if (trimmed.length > max) throw invalid(field, `must be at most ${max} characters (got ${trimmed.length})`);
  return trimmed;
}

export function requireQuantity(field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > MAX_QUANTITY) {
    throw invalid(field, `must be a whole number from ${min} to ${MAX_QUANTITY} (got ${value})`);
  }
  return value;
}

/**
 * For partial updates: undefined leaves the field as it is; null is refused for a field that must have a
 * value. Prisma skips undefined fields, so the result can go straight into `data`.
 */
export function patchOf<T, R>(
  field: string,
  value: T | null | undefined,
  check: (value: T) => R,
): R | undefined {
  if (value === undefined) return undefined;
  if (value === null) throw invalid(field, 'must not be null');
  return check(value);
}
