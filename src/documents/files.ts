import { readFile } from 'node:fs/promises';
import { DOCUMENT_ID_PREFIX } from '../contract/trusted-documents.ts';
import { hashDocument } from './repository.ts';

/**
 * The documents in a file a frontend build wrote: a `.graphql` file is one document (its whole text, as the
 * client sends it); a JSON file is an Apollo persisted-query manifest (`{"operations": [{"id", "body"}]}`) or a
 * map of hash to text (GraphQL Code Generator's persisted documents). Ids given in a file must be the sha256 of
 * the text, since that is what the client will send. Throws naming the problem.
 */
export async function readDocumentsFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  if (/\.(graphql|gql)$/i.test(path)) return [text];
  if (!/\.json$/i.test(path)) throw new Error(`${path}: expected a .graphql or .json file`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON (${(error as Error).message})`);
  }
  const entries = entriesOf(manifest);
  if (!entries) {
    throw new Error(
      `${path}: expected {"operations": [{"id", "body"}, ...]} or {"<sha256>": "<document>", ...}`,
    );
  }
  return entries.map(({ id, body }, i) => {
    const where = `${path}, entry ${i + 1}`;
    if (typeof body !== 'string' || body.trim() === '') throw new Error(`${where}: no document text`);
    const given = typeof id === 'string' ? id.replace(DOCUMENT_ID_PREFIX, '') : undefined;
    if (given !== undefined && given !== hashDocument(body)) {
      throw new Error(
        `${where}: its id ${id} is not the sha256 of its text (a build set to another hash, e.g. sha1?): ` +
          `clients would send an id the gateway does not know. Configure the build for sha256.`,
      );
    }
    return body;
  });
}

function entriesOf(manifest: unknown): { id?: unknown; body: unknown }[] | undefined {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return undefined;
  const { operations } = manifest as { operations?: unknown };
  if (Array.isArray(operations)) {
    return operations.map((operation) =>
      typeof operation === 'object' && operation !== null
        ? (operation as { id?: unknown; body: unknown })
        : { body: undefined },
    );
  }
  return Object.entries(manifest).map(([id, body]) => ({ id, body }));
}
