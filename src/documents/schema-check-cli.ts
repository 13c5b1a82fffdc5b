// `npm run schema:check [-- --against FILE] [--documents FILE...] [--changelog]`: compares the schema the code
// builds with the last released one (schema.graphql on the main branch, or FILE) and judges each breaking change
// against the trusted documents in DATABASE_URL's database and in the given files (docs/schema-checks.md).
// Exit status 1 when a change breaks a registered document, 2 for a wrong command line.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { databasePart } from '../config/database.ts';
import { readConfig } from '../config/read.ts';
import { DOCUMENT_ID_PREFIX } from '../contract/trusted-documents.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { printSchemaSorted } from '../graphql/print.ts';
import { readDocumentsFile } from './files.ts';
import { hashDocument, listDocumentBodies, operationNamesOf } from './repository.ts';
import {
  type CheckedDocument,
  changelogEntry,
  checkFails,
  checkSchema,
  formatReport,
} from './schema-check.ts';

const CHANGELOG = 'docs/schema-changelog.md';
const USAGE = `Usage: npm run --silent schema:check -- [--against FILE] [--documents FILE...] [--changelog]
  --against FILE     the released schema to compare with (default: schema.graphql on the main branch)
  --documents FILE   more documents clients send (.graphql, or a persisted-query manifest .json); repeatable
  --changelog        add a dated entry of the changes to ${CHANGELOG}`;

function releasedSchema(against: string | undefined): string {
  if (against) return readFileSync(against, 'utf8');
  for (const ref of ['main', 'origin/main']) {
    try {
      return execFileSync('git', ['show', `${ref}:schema.graphql`], { encoding: 'utf8', stdio: 'pipe' });
    } catch {}
  }
  throw new Error('no main branch with a schema.graphql here: name the released schema with --against FILE');
}

async function registeredDocuments(): Promise<CheckedDocument[]> {
  const { store } = readConfig({ store: databasePart });
  await migrate(store.database);
  const db = await openDatabase(store.database.url);
  try {
    return (await listDocumentBodies(db.prisma)).map(({ hash, names, body }) => ({
      id: `${DOCUMENT_ID_PREFIX}${hash}`,
      names,
      body,
    }));
  } finally {
    await db.close();
  }
}

async function documentsInFiles(files: string[]): Promise<CheckedDocument[]> {
  const bodies = (await Promise.all(files.map(readDocumentsFile))).flat();
  return bodies.map((body) => ({
    id: `${DOCUMENT_ID_PREFIX}${hashDocument(body)}`,
    names: operationNamesOf(body).join(','),
    body,
  }));
}

let options: { against?: string; documents?: string[]; changelog?: boolean; help?: boolean };
try {
  options = parseArgs({
    options: {
      against: { type: 'string' },
      documents: { type: 'string', multiple: true },
      changelog: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`schema:check: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
} else {
  try {
    const documents = [
      ...(await registeredDocuments()),
      ...(await documentsInFiles(options.documents ?? [])),
    ];
    const report = await checkSchema(releasedSchema(options.against), printSchemaSorted(), documents);
    for (const line of formatReport(report, documents.length)) console.log(line);
    const entry = options.changelog ? changelogEntry(report, new Date()) : null;
    if (entry) {
      // Newest first: the entry goes before the first dated one.
      const changelog = readFileSync(CHANGELOG, 'utf8');
      const first = changelog.indexOf('\n## ');
      const at = first === -1 ? changelog.length : first + 1;
      writeFileSync(
        CHANGELOG,
        `${changelog.slice(0, at).trimEnd()}\n\n${entry}\n${changelog.slice(at)}`.trimEnd().concat('\n'),
      );
      console.log(`Added an entry to ${CHANGELOG}.`);
    }
    if (checkFails(report)) process.exitCode = 1;
  } catch (error) {
    console.error(`schema:check: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
