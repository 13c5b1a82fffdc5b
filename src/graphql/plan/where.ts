import type { Where } from '../field-facts/facts.ts';
import { quote } from './dialects.ts';
import { type Column, columnOf, Unplannable } from './model.ts';

/** A value the statement binds, read from the request's arguments (or a constant of the plan). */
export type Slot = (where: Where) => unknown;

/** Binds a value (read from each request's where) and answers its placeholder. */
export type Bind = (column: Column, read: Slot) => string;

const OPERATORS: Record<string, string> = { equals: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * The part of a Prisma `where` the planner translates, as the shape of the SQL it needs: which columns, which
 * operators, how many values in a list. Two wheres of one shape differ only in bound values.
 */
export function shapeOf(where: Where): string {
  let shape = '';
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object') {
      shape += `${key}${value === null ? ' null' : '='};`;
      continue;
    }
    for (const [op, operand] of Object.entries(value)) {
      if (operand === undefined) continue;
      shape += `${key} ${op}${Array.isArray(operand) ? operand.length : ''};`;
    }
  }
  return shape;
}

/**
 * `where` on the rows of `model` under `alias`, with a placeholder for every value (`placeholder` numbers
 * them); Unplannable for what it does not translate. The values are read again from each request's where.
 */
export function conditionOf(model: string, alias: string, where: Where, bind: Bind): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const column = columnOf(model, key);
    const ref = `${alias}.${quote(key)}`;
    if (value === null) {
      parts.push(`${ref} IS NULL`);
      continue;
    }
    if (typeof value !== 'object') {
      parts.push(`${ref} = ${bind(column, (w) => w[key])}`);
      continue;
    }
    if (Array.isArray(value) || value instanceof Date) throw new Unplannable(`where ${key}`);
    for (const [op, operand] of Object.entries(value)) {
      if (operand === undefined) continue;
      const read = (w: Where) => (w[key] as Record<string, unknown>)[op];
      if (op === 'in' && Array.isArray(operand)) {
        if (operand.length === 0) {
          parts.push('1 = 0');
          continue;
        }
        const list = operand.map((_, i) => bind(column, (w) => (read(w) as unknown[])[i]));
        parts.push(`${ref} IN (${list.join(', ')})`);
        continue;
      }
      const sqlOp = OPERATORS[op];
      if (!sqlOp || operand === null || typeof operand === 'object')
        throw new Unplannable(`where ${key} ${op}`);
      parts.push(`${ref} ${sqlOp} ${bind(column, read)}`);
    }
  }
  return parts.length ? parts.join(' AND ') : '1 = 1';
}
