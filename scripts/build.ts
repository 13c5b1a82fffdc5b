// `npm run build` (and so `npm start`): compiles src/ into `.dist-<id>/` and points `dist` at it.
//
// Several gateways may start at once from one checkout (a supervisor's instances, a rolling restart), and a
// running gateway reads files of its build long after it started (the /docs page, the modules it imports
// lazily). So a build is never changed or deleted in place: its folder is named by the digest of what it is
// built from (sources, compiler settings, lockfile, this script), made under a temporary name and renamed into
// place whole, and `dist` is a symlink swapped by one rename. A build that exists already is used as it is, so
// concurrent starts of the same code compile once at most each and all run the same files. Node loads
// `dist/main.js` by its real path, so a running gateway keeps reading its own build after `dist` moves on.
// Builds sit beside `dist`, at its depth, as the modules find files of the checkout by relative paths
// (`../../prisma/migrations`). Old builds are kept (about 2 MB each, one per version built): a gateway may still run
// from one; delete those no gateway runs from.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const DIST = 'dist';
const BUILD_PREFIX = '.dist-';
const COMPLETE = '.complete';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build.ts'];
/** Files tsc does not emit that the gateway reads at run time, copied next to its modules. */
const ASSETS = [
  { from: 'src/rest/reference-page', to: 'rest/reference-page', names: /\.(html|js|css)$/ },
  { from: 'src/usage/page', to: 'usage/page', names: /\.(html|js|css)$/ },
];

function filesUnder(path: string): string[] {
  if (!lstatSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** The build's id: the digest of every input's path and content. */
function buildId(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder))
    hash.update(`${file}\n`).update(readFileSync(file)).update('\n');
  return hash.digest('hex').slice(0, 16);
}

/** Compiles into a folder of its own and renames it into place; another start may have got there first. */
function compile(target: string): void {
  const temporary = `${BUILD_PREFIX}tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  try {
    execFileSync(join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', temporary], {
      stdio: 'inherit',
    });
    for (const { from, to, names } of ASSETS) {
      cpSync(from, join(temporary, to), {
        recursive: true,
        filter: (source) => lstatSync(source).isDirectory() || names.test(source),
      });
    }
    writeFileSync(join(temporary, COMPLETE), `${new Date().toISOString()}\n`);
    renameSync(temporary, target);
  } catch (error) {
    if (!existsSync(join(target, COMPLETE))) throw error;
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** Points `dist` at the build with one rename, which replaces the old symlink atomically. */
function pointDistAt(target: string): void {
  const link = `${DIST}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  symlinkSync(target, link);
  try {
    // A `dist` folder of the builds before this script: moved aside whole, since a rename cannot replace it.
    if (existsSync(DIST) && !lstatSync(DIST).isSymbolicLink()) {
      try {
        renameSync(DIST, `${BUILD_PREFIX}old-${randomUUID().slice(0, 8)}`);
      } catch {
        // Another start moved it first.
      }
    }
    renameSync(link, DIST);
  } finally {
    rmSync(link, { force: true });
  }
}

const target = `${BUILD_PREFIX}${buildId()}`;
if (!existsSync(join(target, COMPLETE))) compile(target);
pointDistAt(target);
