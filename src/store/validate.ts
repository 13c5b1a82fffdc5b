import { invalid } from '../contract/errors.ts';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_QUANTITY = 1_000_000;

// Control characters (C0, DEL, C1) are invisible and break logs, terminals and exports; PostgreSQL refuses NUL
// while SQLite stores it, so they are refused before either sees them. Texts of several lines keep tab, LF, CR.
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;
// Under the u flag a surrogate pair is one code point: what matches is a lone half, which no database can store
// as it is (the text would be changed to U+FFFD).
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A text field's value, trimmed: not empty, at most `max` characters, no control character (but line breaks and
 * tabs when `lines`), well-formed Unicode. Every text a write stores passes here.
 */
export function requireText(
  field: string,
  value: string,
  max = MAX_NAME_LENGTH,
  { lines = false }: { lines?: boolean } = {},
): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalid(field, 'must not be empty');
  if (trimmed.length > max) throw invalid(field, `must be at most ${max} characters (got ${trimmed.length})`);
  const control = (lines ? CONTROL_BUT_LINE_BREAKS : CONTROL).exec(trimmed);
  if (control) {
    const codePoint = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw invalid(
      field,
      `must not contain control characters (found ${codePoint} at position ${control.index})`,
    );
  }
  if (LONE_SURROGATE.test(trimmed))
    throw invalid(field, 'must be well-formed Unicode (found a lone surrogate)');
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
