import { found } from '../../contract/errors.ts';
import { findUniqueTogether } from '../../db/read-together.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { createCategory, deleteCategory, updateCategory } from '../../store/categories.ts';
import { builder } from '../builder.ts';
import { findEntity, ID_KEY } from '../entities.ts';
import { listWhere } from '../list-where.ts';
import { paging } from '../paging.ts';
import { idArg } from './args.ts';
import { PetConnection } from './pet.ts';

export const CategoryType = builder.prismaObject('Category', {
  description: 'A category of animals.',
  fields: (t) => ({
    id: t.expose('id', { type: 'Int64', description: 'Unique identifier assigned on creation.' }),
    name: t.exposeString('name', { description: 'Category name, e.g. a kind of animal.' }),
    description: t.exposeString('description', { nullable: true, description: 'Short description.' }),
    pets: t.relatedConnection(
      'pets',
      { cursor: 'id', ...paging, query: { orderBy: { id: 'asc' } }, listPlan: { cursor: 'id' } },
      PetConnection,
    ),
  }),
});

builder.asEntity(CategoryType, {
  key: ID_KEY,
  resolveReference: (reference, context, info) =>
    findEntity(context.prisma.category, 'Category', reference, context, info),
});

const CategoryConnection = builder.connectionObject({ type: CategoryType, name: 'CategoryConnection' });

const NewCategoryInput = builder.inputType('NewCategory', {
  description: 'A category to create.',
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
  }),
});

const CategoryPatchInput = builder.inputType('CategoryPatch', {
  description: 'Changes to a category: fields left out stay as they are; a null description removes it.',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
  }),
});

builder.queryFields((t) => ({
  category: t.prismaField({
    type: 'Category',
    nullable: true,
    description: 'One category by id.',
    args: idArg,
    resolve: (query, _root, { id }, { prisma }) =>
      found(findUniqueTogether(prisma.category, 'id', id, query), 'Category', id),
  }),
  categories: t.prismaConnection(
    {
      type: 'Category',
      cursor: 'id',
      ...paging,
      description: 'Categories in id order.',
      listPlan: { cursor: 'id', where: () => ({}) },
      resolve: (query, _root, args, { prisma, caller }, info) =>
        prisma.category.findMany({
          ...query,
          orderBy: { id: 'asc' },
          where: listWhere<Prisma.CategoryWhereInput>(info, args, caller),
        }),
    },
    CategoryConnection,
  ),
}));

builder.mutationFields((t) => ({
  createCategory: t.prismaField({
    type: 'Category',
    nullable: true,
    description: 'Creates a category.',
    args: { input: t.arg({ type: NewCategoryInput, required: true }) },
    scope: 'catalog',
    resolve: (query, _root, { input }, { prisma }) => createCategory(prisma, input, query),
  }),
  updateCategory: t.prismaField({
    type: 'Category',
    nullable: true,
    description: 'Changes the given fields of a category.',
    args: { ...idArg, input: t.arg({ type: CategoryPatchInput, required: true }) },
    scope: 'catalog',
    resolve: (query, _root, { id, input }, { prisma }) => updateCategory(prisma, id, input, query),
  }),
  deleteCategory: t.prismaField({
    type: 'Category',
    nullable: true,
    description: 'Deletes a category; refused while pets belong to it.',
    args: idArg,
    scope: 'catalog',
    resolve: (query, _root, { id }, { prisma }) => deleteCategory(prisma, id, query),
  }),
}));
