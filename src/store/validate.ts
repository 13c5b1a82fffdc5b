import { type ApiError, apiError } from '../contract/errors.ts';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_QUANTITY = 1_000_000;

/** A text field's rule: trimmed, not empty, at most `max` characters, one line unless `lines`. */
export interface TextRule {
  kind: 'text';
  max: number;
  lines: boolean;
  description: string;
}

/** A quantity's rule: a whole number from `min` to `max`; `default` when left out or null. */
export interface QuantityRule {
  kind: 'quantity';
  min: number;
  max: number;
  default?: number;
  description: string;
}

export type FieldRule = TextRule | QuantityRule;

export const NAME: TextRule = {
  kind: 'text',
  max: MAX_NAME_LENGTH,
  lines: false,
  description: `Trimmed; 1 to ${MAX_NAME_LENGTH} characters on one line: no control characters (U+0000-U+001F, U+007F-U+009F).`,
};

export const DESCRIPTION: TextRule = {
  kind: 'text',
  max: MAX_DESCRIPTION_LENGTH,
  lines: true,
  description: `Trimmed; 1 to ${MAX_DESCRIPTION_LENGTH} characters. Line breaks and tabs are kept; other control characters are refused.`,
};

export const ORDERED_QUANTITY: QuantityRule = {
  kind: 'quantity',
  min: 1,
  max: MAX_QUANTITY,
  default: 1,
  description: `A whole number from 1 to ${MAX_QUANTITY}, taken from stock; 1 when left out.`,
};

export const STOCK_QUANTITY: QuantityRule = {
  kind: 'quantity',
  min: 0,
  max: MAX_QUANTITY,
  description: `A whole number from 0 to ${MAX_QUANTITY}.`,
};

/**
 * The rule of each input field that has one beyond its type, by input type and field: the store applies them
 * (below, and in its writes), and the REST document states them (rest/body-schemas.ts).
 */
const FIELD_RULES: Record<string, Record<string, FieldRule>> = {
  NewPet: { name: NAME },
  PetPatch: { name: NAME },
  NewCategory: { name: NAME, description: DESCRIPTION },
  CategoryPatch: { name: NAME, description: DESCRIPTION },
  NewOrder: { quantity: ORDERED_QUANTITY },
  InventoryUpdate: { quantity: STOCK_QUANTITY },
};

export const ruleOf = (input: string, field: string): FieldRule | undefined => FIELD_RULES[input]?.[field];

// Control characters (C0, DEL, C1) are invisible and break logs, terminals and exports; PostgreSQL refuses NUL
// while SQLite stores it, so they are refused before either sees them. Texts of several lines keep tab, LF, CR.
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;
// Under the u flag a surrogate pair is one code point: what matches is a lone half, which no database can store
// as it is (the text would be changed to U+FFFD).
const LONE_SURROGATE = /\p{Cs}/u;

/** A text field's value under its rule, trimmed. Every text a write stores passes here. */
export function requireText(field: string, value: string, rule: TextRule = NAME): string {
  const trimmed = value.trim();
  if (!trimmed) throw apiError('fieldEmpty', { field });
  if (trimmed.length > rule.max) {
    throw apiError('fieldTooLong', { field, max: rule.max, length: trimmed.length });
  }
  const control = (rule.lines ? CONTROL_BUT_LINE_BREAKS : CONTROL).exec(trimmed);
  if (control) {
    throw apiError('fieldControlCharacter', { field, character: control[0], position: control.index });
  }
  if (LONE_SURROGATE.test(trimmed)) throw apiError('fieldLoneSurrogate', { field });
  return trimmed;
}

/** The refusal of a quantity under its rule, or undefined when it fits. */
export function quantityProblem(field: string, rule: QuantityRule, value: unknown): ApiError | undefined {
  const fits = Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max;
  return fits
    ? undefined
    : apiError('quantityOutOfRange', { field, min: rule.min, max: rule.max, got: value });
}

/** A quantity under its rule; its default when left out or null (a rule without one refuses null). */
export function requireQuantity(field: string, value: number | null | undefined, rule: QuantityRule): number {
  const quantity = value ?? rule.default;
  if (quantity === undefined) throw apiError('fieldNull', { field });
  const problem = quantityProblem(field, rule, quantity);
  if (problem) throw problem;
  return quantity;
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
  if (value === null) throw apiError('fieldNull', { field });
  return check(value);
}
