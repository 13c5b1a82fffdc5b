import { createHash } from 'node:crypto';
import { Kind, parse } from 'graphql';
import type { Db } from '../db/client.ts';
import type { TrustedDocument } from '../generated/sqlite/client.ts';

/** The hash a document is registered and sent by: sha256 of its exact text (UTF-8), in lower-case hex. */
export const hashDocument = (body: string) => createHash('sha256').update(body, 'utf8').digest('hex');

/**
 * A document's operation names, checked: it must parse and hold at least one operation (a document of fragments
 * alone runs nothing). Throws naming the problem.
 */
export function operationNamesOf(body: string): string[] {
  const document = parse(body, { noLocation: true });
  const operations = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length === 0) throw new Error('it holds no operation');
  if (operations.length > 1 && operations.some((operation) => !operation.name)) {
    throw new Error('its operations must all be named when there are several');
  }
  return operations.map((operation) => operation.name?.value ?? '(anonymous)');
}

/**
 * Stores documents, all or none: each is checked first (the error names the first that fails, counting from 1).
 * A document already stored is the same text (same hash) and is left as it is. Answers the ones added.
 */
export async function addDocuments(prisma: Db, bodies: readonly string[]): Promise<TrustedDocument[]> {
  const checked = bodies.map((body, i) => {
    try {
      return { hash: hashDocument(body), body, names: operationNamesOf(body).join(',') };
    } catch (error) {
      throw new Error(`document ${i + 1} of ${bodies.length}: ${(error as Error).message}`);
    }
  });
  return prisma.$transaction(async (tx) => {
    const added: TrustedDocument[] = [];
    for (const document of checked) {
      if (await tx.trustedDocument.findUnique({ where: { hash: document.hash }, select: { hash: true } }))
        continue;
      if (added.some(({ hash }) => hash === document.hash)) continue;
      added.push(await tx.trustedDocument.create({ data: document }));
    }
    return added;
  });
}

export function listDocuments(prisma: Db): Promise<Pick<TrustedDocument, 'hash' | 'names' | 'createdAt'>[]> {
  return prisma.trustedDocument.findMany({
    select: { hash: true, names: true, createdAt: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Removes a document by hash; false when there is none. */
export async function removeDocument(prisma: Db, hash: string): Promise<boolean> {
  const { count } = await prisma.trustedDocument.deleteMany({ where: { hash } });
  return count === 1;
}

/** Every registered document with its text, for the schema check. */
export function listDocumentBodies(prisma: Db): Promise<Pick<TrustedDocument, 'hash' | 'names' | 'body'>[]> {
  return prisma.trustedDocument.findMany({
    select: { hash: true, names: true, body: true },
    orderBy: { createdAt: 'asc' },
  });
}

export async function findDocumentBody(prisma: Db, hash: string): Promise<string | null> {
  const row = await prisma.trustedDocument.findUnique({ where: { hash }, select: { body: true } });
  return row?.body ?? null;
}
