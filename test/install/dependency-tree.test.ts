// A quiet install: the Node versions `engines` names are ones every locked package supports (so npm prints no
// EBADENGINE on them), and the installed tree has no invalid or missing dependency or peer. No network needed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(resolve(root, file), 'utf8'));

interface LockedPackage {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

it('every locked package supports every Node version that engines.node admits', () => {
  const ours: string = readJson('package.json').engines.node;
  const lock: { packages: Record<string, LockedPackage> } = readJson('package-lock.json');
  const excluding = Object.entries(lock.packages)
    .map(([path, locked]) => ({
      path,
      locked,
      node: Array.isArray(locked.engines) ? undefined : locked.engines?.node,
    }))
    // Optional packages are other platforms' binaries: npm skips those that do not fit, silently.
    .filter(({ path, locked, node }) => path && node && !locked.optional && !semver.subset(ours, node))
    .map(({ path, locked, node }) => `${path}@${locked.version} wants node ${node}`);
  expect(excluding).toEqual([]);
  // And the lowest Node we claim is one the tree needs: engines is not stricter than the truth either.
  expect(semver.minVersion(ours)?.version).toBe('20.19.0');
});

it('npm ls finds no invalid, missing or extraneous package and no unmet peer', async () => {
  const { stdout } = await promisify(execFile)('npm', ['ls', '--all', '--json'], { cwd: root }).catch(
    // npm ls exits 1 when it finds problems; its report is still on stdout.
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  const report: { problems?: string[] } = JSON.parse(stdout);
  expect(report.problems ?? []).toEqual([]);
});
