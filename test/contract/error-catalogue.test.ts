// The catalogue (src/contract/errors.ts) is the one home of every code, status and message: the docs' tables
// are generated from it, and no source file writes an error message of its own.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC_FILE, withErrorTables } from '../../src/contract/error-docs.ts';
import {
  ERROR_CODES,
  ERROR_STATUS,
  ERRORS,
  type ErrorCode,
  type ErrorName,
  entriesOf,
  exampleOf,
} from '../../src/contract/errors.ts';
import { MAX_NAME_LENGTH, ORDERED_QUANTITY } from '../../src/store/validate.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('the error catalogue', () => {
  it('docs/errors.md carries the tables generated from it (run npm run docs:errors after changing it)', () => {
    const committed = readFileSync(ERRORS_DOC_FILE, 'utf8');
    expect(committed).toBe(withErrorTables(committed));
  });

  it('has a message for every code, and a status for every code of a message', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect(entriesOf(code).length, code).toBeGreaterThan(0);
    }
    for (const name of Object.keys(ERRORS) as ErrorName[]) {
      const example = exampleOf(name);
      expect(example.status, name).toBe(ERROR_STATUS[example.code]);
      expect(example.message, name).not.toMatch(/undefined|\[object Object\]|NaN/);
    }
  });

  it('is where every error message is written: no source file makes an ApiError or GraphQL error of its own', () => {
    // graphql-error.ts turns catalogue errors into GraphQL errors; scalars.ts are graphql-js's coercion messages.
    const allowed = new Set(['contract/errors.ts', 'contract/graphql-error.ts', 'graphql/scalars.ts']);
    const offenders = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => !allowed.has(file))
      .filter((file) =>
        /new (ApiError|GraphQLError)\(|code: '[A-Z_]+',\s*(message|status)/.test(
          readFileSync(path.join(SRC, file), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });

  it('states limits by their named constants, not as retyped numbers', () => {
    const retyped = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => file !== 'contract/limits.ts')
      .filter((file) =>
        /\b8192\b|24 hours|1 to 255|1 to 100, default 20/.test(readFileSync(path.join(SRC, file), 'utf8')),
      );
    expect(retyped).toEqual([]);
  });

  it("shows the store's own limits in the examples of its refusals (the contract cannot import the store)", () => {
    expect(ERRORS.fieldTooLong.example).toMatchObject({ max: MAX_NAME_LENGTH, length: MAX_NAME_LENGTH + 1 });
    expect(ERRORS.quantityOutOfRange.example).toMatchObject({
      min: ORDERED_QUANTITY.min,
      max: ORDERED_QUANTITY.max,
    });
  });
});
