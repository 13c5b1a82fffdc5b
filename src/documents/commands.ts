import { parseCommandLine, splitCommand, UsageError, usageText } from '../cli/command-line.ts';
import { DOCUMENT_ID_PATTERN, DOCUMENT_ID_PREFIX } from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import { readDocumentsFile } from './files.ts';
import { addDocuments, listDocuments, removeDocument } from './repository.ts';

export const USAGE = usageText('documents', [
  {
    args: 'add <file.graphql|manifest.json> [more files]',
    about: [
      'Registers the operations a frontend uses, each by the sha256 of its text. A .graphql file is one document',
      '(its whole text); a .json file is an Apollo persisted-query manifest or a map of sha256 to text.',
      'Clients then send {"documentId": "sha256:<hex>", "variables": {...}} (docs/trusted-documents.md).',
    ],
  },
  { args: 'list' },
  {
    args: 'remove <sha256:hex>',
    about: ['Gateways stop running it within their document cache time (60 s).'],
  },
]);

export type DocumentsCommand =
  | { command: 'add'; files: string[] }
  | { command: 'list' }
  | { command: 'remove'; hash: string };

const COMMANDS = ['add', 'list', 'remove'] as const;

export function parseDocumentsCommand(argv: string[]): DocumentsCommand {
  const [command, rest] = splitCommand(argv, COMMANDS);
  const { positionals } = parseCommandLine(rest, {});
  if (command === 'add') {
    if (positionals.length === 0) throw new UsageError('add takes one or more files');
    return { command, files: positionals };
  }
  if (command === 'list') {
    if (positionals.length > 0) throw new UsageError('list takes no arguments');
    return { command };
  }
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0 || !DOCUMENT_ID_PATTERN.test(id)) {
    throw new UsageError('remove takes one document id, sha256:<64 lower-case hex digits> (see `list`)');
  }
  return { command, hash: id.slice(DOCUMENT_ID_PREFIX.length) };
}

/** Runs a command; answers the lines to print. Throws an Error whose message is for the user. */
export async function runDocumentsCommand(command: DocumentsCommand, prisma: Db): Promise<string[]> {
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
