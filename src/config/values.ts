import { z } from 'zod';

/** A whole number written in digits, from `min` (to `max`); the message names the unit and the range. */
export function wholeNumber({
  min,
  max,
  unit,
  note,
}: {
  min: number;
  max?: number;
  unit?: string;
  note?: string;
}) {
  const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
  const message = `must be a whole number${unit ? ` of ${unit}` : ''} ${range}${note ? ` (${note})` : ''}`;
  return z
    .string()
    .regex(/^\d+$/, message)
    .transform(Number)
    .refine((n) => n >= min && (max === undefined || n <= max), message);
}

export const instant = z
  .union(
    [z.iso.date(), z.iso.datetime({ offset: true })],
    'must be an ISO 8601 date (2027-07-01) or date-time with a zone (2027-07-01T00:00:00Z)',
  )
  .transform((text) => new Date(text));

export const trueOrFalse = z
  .enum(['true', 'false'], 'must be true or false')
  .transform((value) => value === 'true');
