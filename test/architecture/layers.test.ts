// The layers docs/architecture.md lists hold in the code: every import between two folders of src/ points down
// that list, and no file imports itself round a circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Each file's imports of other files of src/ (`import`, `export … from`, `import()`), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    ([, specifier]) => specifier as string,
  );
  return specifiers
    .map((specifier) => relative(ROOT, resolve(dirname(file), specifier)))
    .filter((path) => path.startsWith('src/') && !path.startsWith('src/generated/'));
}

/** The folder (or top-level file) of src/ that a path belongs to: `src/http/`, `src/main.ts`. */
const layerOf = (path: string) => {
  const [, first, ...rest] = path.split('/');
  return rest.length > 0 ? `src/${first}/` : `src/${first}`;
};

/** The layers as the document lists them, top first; names on one line share a rank. */
function documentedLayers(): string[][] {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## Layers'));
  const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  return block
    .split('\n')
    .map((line) => line.match(/^(src\/\S+(?: src\/\S+)*)/)?.[1])
    .filter((names): names is string => names !== undefined)
    .map((names) => names.split(' '));
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(ROOT, file), imports: importsOf(file) }));

it('lists every folder of src/ in docs/architecture.md', () => {
  const listed = documentedLayers().flat();
  const present = [...new Set(files.map(({ path }) => layerOf(path)))];
  expect(present.filter((layer) => !listed.includes(layer))).toEqual([]);
});

it('imports only down the documented layers', () => {
  const rank = new Map(documentedLayers().flatMap((names, index) => names.map((name) => [name, index])));
  const upward = files.flatMap(({ path, imports }) =>
    imports
      .filter((target) => layerOf(target) !== layerOf(path))
      .filter((target) => (rank.get(layerOf(path)) ?? -1) >= (rank.get(layerOf(target)) ?? -1))
      .map((target) => `${path} -> ${target}`),
  );
  expect(upward).toEqual([]);
});

it('has no circle of imports between files', () => {
  const graph = new Map(files.map(({ path, imports }) => [path, imports]));
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (path: string, trail: string[]) => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'open') {
      circles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '));
      return;
    }
    state.set(path, 'open');
    for (const target of graph.get(path) ?? []) visit(target, [...trail, path]);
    state.set(path, 'done');
  };
  for (const path of graph.keys()) visit(path, []);
  expect(circles).toEqual([]);
});
