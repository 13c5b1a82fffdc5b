import { DOCUMENT_ID_PATTERN, DOCUMENT_ID_PREFIX } from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import { readDocumentsFile } from './files.ts';
import { addDocuments, listDocuments, removeDocument } from './repository.ts';

export const USAGE = `Usage:
  npm run --silent documents -- add <file.graphql|manifest.json> [more files]
      Registers the operations a frontend uses, each by the sha256 of its text. A .graphql file is one document
      (its whole text); a .json file is an Apollo persisted-query manifest or a map of sha256 to text.
      Clients then send {"documentId": "sha256:<hex>", "variables": {...}} (docs/trusted-documents.md).
  npm run --silent documents -- list
  npm run --silent documents -- remove <sha256:hex>
      Gateways stop running it within their document cache time (60 s).
  npm run --silent documents -- --help`;

/** The command line is wrong: the message says how, and the usage follows it. */
export class UsageError extends Error {}

export type DocumentsCommand =
  | { command: 'add'; files: string[] }
  | { command: 'list' }
  | { command: 'remove'; hash: string }
  | { command: 'help' };

export function parseDocumentsCommand(argv: string[]): DocumentsCommand {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === 'add') {
    if (rest.length === 0) throw new UsageError('add takes one or more files');
    const option = rest.find((arg) => arg.startsWith('-'));
    if (option) throw new UsageError(`add takes no option "${option}"`);
    return { command, files: rest };
  }
  if (command === 'list') {
    if (rest.length > 0) throw new UsageError('list takes no arguments');
    return { command };
  }
  if (command === 'remove') {
    const [id, ...extra] = rest;
    if (id === undefined || extra.length > 0 || !DOCUMENT_ID_PATTERN.test(id)) {
      throw new UsageError('remove takes one document id, sha256:<64 lower-case hex digits> (see `list`)');
    }
    return { command, hash: id.slice(DOCUMENT_ID_PREFIX.length) };
  }
  throw new UsageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
}

/** Runs a command; answers the lines to print. Throws an Error whose message is for the user. */
export async function runDocumentsCommand(command: DocumentsCommand, prisma: Db): Promise<string[]> {
  if (command.command === 'help') return [USAGE];
  if (command.command === 'add') {
    const bodies = (await Promise.all(command.files.map(readDocumentsFile))).flat();
    const added = await addDocuments(prisma, bodies);
    return [
      `${added.length} added, ${bodies.length - added.length} already registered.`,
      ...added.map(({ hash, names }) => `${DOCUMENT_ID_PREFIX}${hash}  ${names}`),
    ];
  }
  if (command.command === 'list') {
    const documents = await listDocuments(prisma);
    if (documents.length === 0)
      return ['No trusted documents yet. Add some with: npm run documents -- add <file>'];
    return documents.map(
      ({ hash, names, createdAt }) => `${DOCUMENT_ID_PREFIX}${hash}  ${createdAt.toISOString()}  ${names}`,
    );
  }
  if (!(await removeDocument(prisma, command.hash))) {
    throw new Error(`There is no document ${DOCUMENT_ID_PREFIX}${command.hash} (see \`list\`)`);
  }
  return [
    `Removed ${DOCUMENT_ID_PREFIX}${command.hash}. Gateways stop running it within 60 s (their cache).`,
  ];
}
