import { apiError, notFound } from '../contract/errors.ts';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { isForeignKeyViolation, orMissing } from './prisma-errors.ts';
import { DESCRIPTION, patchOf, requireText } from './validate.ts';

export type CategoryQuery = { include?: Prisma.CategoryInclude; select?: Prisma.CategorySelect };

export interface CategoryPatch {
  name?: string | null;
  description?: string | null;
}

const description = (value: string | null | undefined) =>
  value == null ? value : requireText('description', value, DESCRIPTION);

export function createCategory(
  prisma: Db,
  fields: { name: string; description?: string | null },
  query: CategoryQuery = {},
) {
  return prisma.category.create({
    ...query,
    data: { name: requireText('name', fields.name), description: description(fields.description) },
  });
}

export function updateCategory(prisma: Db, id: bigint, patch: CategoryPatch, query: CategoryQuery = {}) {
  const data = {
    name: patchOf('name', patch.name, (v) => requireText('name', v)),
    description: description(patch.description),
  };
  return orMissing(prisma.category.update({ ...query, where: { id }, data }), () => notFound('Category', id));
}

/** Refused while pets belong to it; the foreign key decides, so a pet added meanwhile cannot be orphaned. */
export async function deleteCategory(prisma: Db, id: bigint, query: CategoryQuery = {}) {
  try {
    return await orMissing(prisma.category.delete({ ...query, where: { id } }), () =>
      notFound('Category', id),
    );
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    const pets = await prisma.pet.count({ where: { categoryId: id } });
    throw apiError('categoryHasPets', { id, pets });
  }
}
