import { describe, expect, it } from 'vitest';
import { changelogEntry, checkFails, checkSchema } from '../../src/documents/schema-check.ts';
import { printSchemaSorted } from '../../src/graphql/print.ts';

const current = printSchemaSorted();
const released = current
  .replace(/^type Pet \{\n/m, 'type Pet {\n  nickname: String\n')
  .concat('\ntype Review {\n  stars: Int!\n}\n');
const NAMES = 'query Names { pets(first: 2) { edges { node { name } } } }';

describe('the check judged in process', () => {
  it('fails on a new required argument of a field a document selects, which no removal names', async () => {
    const withRequired = current.replace(
      /( {2}pets\(\n)( {4}after: String\n {4}before: String\n {4}categoryId)/,
      '$1    mood: String!\n$2',
    );
    expect(withRequired).not.toBe(current);
    const report = await checkSchema(current, withRequired, [{ id: 'x', names: 'Names', body: NAMES }]);
    expect(report.brokenDocuments[0]?.errors.join()).toContain(
      'argument "mood" of type "String!" is required',
    );
    expect(checkFails(report)).toBe(true);
  });

  it('fails on a removed enum value a document passes, and only warns when no document passes one', async () => {
    const withoutSold = current.replace(/(enum PetStatus \{\n\s+available\n\s+pending\n)\s+sold\n/, '$1');
    expect(withoutSold).not.toBe(current);
    const sold = {
      id: 'x',
      names: 'Sold',
      body: 'query Sold { pets(status: sold) { pageInfo { hasNextPage } } }',
    };
    const byVariable = {
      id: 'y',
      names: 'ByStatus',
      body: 'query ByStatus($s: PetStatus) { pets(status: $s) { pageInfo { hasNextPage } } }',
    };
    const names = { id: 'z', names: 'Names', body: NAMES };
    expect(checkFails(await checkSchema(current, withoutSold, [sold]))).toBe(true);
    expect(checkFails(await checkSchema(current, withoutSold, [byVariable]))).toBe(true);
    const unused = await checkSchema(current, withoutSold, [names]);
    expect(checkFails(unused)).toBe(false);
    const invalid = { id: 'w', names: 'Invalid', body: 'query Invalid { pets { nope } }' };
    const already = await checkSchema(current, withoutSold, [invalid]);
    expect(checkFails(already)).toBe(false);
    expect(already.invalidBefore).toEqual(['w (Invalid)']);
    expect(unused.warnings.map((finding) => finding.message).join()).toContain("'sold'");
  });

  it('words a dated changelog entry, and none when nothing changed', async () => {
    const report = await checkSchema(released, current, []);
    const entry = changelogEntry(report, new Date('2026-11-27T12:00:00Z'));
    expect(entry).toMatch(/^## 2026-11-27\n\n- /);
    expect(entry).toContain("\n- Warning: Field 'nickname' was removed from object type 'Pet'");
    expect(changelogEntry(await checkSchema(current, current, []), new Date())).toBeNull();
  });
});
