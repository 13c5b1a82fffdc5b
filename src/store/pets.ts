import { apiError, notFound } from '../contract/errors.ts';
import type { Db } from '../db/client.ts';
import { inventoryChange } from '../events/change.ts';
import type { PetStatus, Prisma } from '../generated/sqlite/client.ts';
import { afterCommit, alsoSelecting, type Writer } from './after-commit.ts';
import { changeInventory } from './inventory.ts';
import { isForeignKeyViolation, orMissing } from './prisma-errors.ts';
import { patchOf, requireText } from './validate.ts';

export type PetQuery = { include?: Prisma.PetInclude; select?: Prisma.PetSelect };

export interface PetPatch {
  name?: string | null;
  categoryId?: bigint | null;
  status?: PetStatus | null;
}

/** A category that does not exist is the client's mistake in `categoryId`, not a missing resource. */
async function withCategoryCheck<T>(categoryId: bigint | null | undefined, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error))
      throw apiError('referenceNotFound', { field: 'categoryId', what: 'category', id: String(categoryId) });
    throw error;
  }
}

/** Every pet gets its inventory entry, at quantity 0 and version 0, in the same statement. */
export async function createPet(
  writer: Writer,
  fields: { name: string; categoryId: bigint; status?: PetStatus | null },
  query: PetQuery = {},
) {
  const data = {
    name: requireText('name', fields.name),
    categoryId: fields.categoryId,
    status: fields.status ?? 'available',
    inventory: { create: {} },
  };
  const pet = await withCategoryCheck(
    fields.categoryId,
    writer.prisma.pet.create({ ...alsoSelecting(query, { id: true }), data }),
  );
  afterCommit(writer, [inventoryChange({ petId: pet.id, quantity: 0, openOrders: 0, version: 0 })]);
  return pet;
}

export function updatePet(prisma: Db, id: bigint, patch: PetPatch, query: PetQuery = {}) {
  const data = {
    name: patchOf('name', patch.name, (v) => requireText('name', v)),
    categoryId: patchOf('categoryId', patch.categoryId, (v) => v),
    status: patchOf('status', patch.status, (v) => v),
  };
  return withCategoryCheck(
    patch.categoryId,
    orMissing(prisma.pet.update({ ...query, where: { id }, data }), () => notFound('Pet', id)),
  );
}

/**
 * Refused while open orders reference the pet. The conditional update of its inventory row takes that row's
 * lock, the same one placing an order takes first, so an order cannot slip in between check and delete.
 * Completed orders keep their history with petId set to null.
 */
export async function deletePet(writer: Writer, id: bigint, query: PetQuery = {}) {
  const { pet, gone } = await writer.prisma.$transaction(async (tx) => {
    // The inventory row's last change: the pet's deletion.
    const gone = await changeInventory(tx, { petId: id, openOrders: 0 }, {}, { deleted: true });
    if (!gone) {
      const inventory = await tx.inventoryItem.findUnique({ where: { petId: id } });
      if (!inventory) throw notFound('Pet', id);
      throw apiError('petHasOpenOrders', { id, openOrders: inventory.openOrders });
    }
    const pet = await tx.pet.findUniqueOrThrow({ ...query, where: { id } });
    await tx.pet.delete({ where: { id } });
    return { pet, gone };
  });
  afterCommit(writer, [gone]);
  return pet;
}
