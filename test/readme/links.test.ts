import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README and docs/ are the user's whole world: every link between them resolves in a clone, and none
// points at files outside it.
const root = resolve(import.meta.dirname, '../..');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];

/** Markdown links and images, `[text](target)`, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    ([, target]) => target as string,
  );
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => anchorOf(heading as string)));
}

describe('the links of the README and docs/', () => {
  it.each(pages.map((page) => [relative(root, page), page]))(
    '%s: every local link resolves',
    (_name, page) => {
      const broken: string[] = [];
      for (const target of linksOf(readFileSync(page, 'utf8'))) {
        if (/^(https?|mailto):/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path ? resolve(dirname(page), decodeURIComponent(path)) : page;
        if (!file.startsWith(`${root}/`) || !existsSync(file)) broken.push(target);
        else if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(file).has(anchor))
          broken.push(target);
      }
      expect(broken).toEqual([]);
    },
  );

  it('never point into ../shared, which a clone does not have', () => {
    for (const page of pages)
      expect(readFileSync(page, 'utf8'), relative(root, page)).not.toMatch(/\.\.\/shared\b/);
  });

  it('README: no paragraph said twice, no page listed twice in its Documentation table', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const paragraphs = readme
      .replace(/^```[\s\S]*?^```$/gm, '')
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter((paragraph) => paragraph.length > 40);
    expect(paragraphs.filter((paragraph, i) => paragraphs.indexOf(paragraph) !== i)).toEqual([]);
    const table = /^## Documentation\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
    const listed = linksOf(table).map((target) => target.split('#')[0]);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((target, i) => listed.indexOf(target) !== i)).toEqual([]);
  });

  it('finds the links it checks', () => {
    expect(linksOf('See [a](docs/a.md#b), ![shot](x.png) and `[c](d)`.')).toEqual(['docs/a.md#b', 'x.png']);
    expect(anchorOf('Front door, explorer and API reference')).toBe('front-door-explorer-and-api-reference');
  });
});
