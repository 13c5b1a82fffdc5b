import { apiError, found } from '../../contract/errors.ts';
import { findUniqueTogether } from '../../db/read-together.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { PetStatus } from '../../generated/sqlite/enums.ts';
import { createPet, deletePet, updatePet } from '../../store/pets.ts';
import { builder } from '../builder.ts';
import { findEntity, ID_KEY } from '../entities.ts';
import { listWhere } from '../list-where.ts';
import { MAX_PAGE_SIZE, paging } from '../paging.ts';
import { idArg } from './args.ts';

export const PetStatusEnum = builder.enumType(PetStatus, {
  name: 'PetStatus',
  description: 'Status of a pet or of an inventory entry.',
});

export const PetType = builder.prismaObject('Pet', {
  description: 'An animal in the store.',
  fields: (t) => ({
    id: t.expose('id', { type: 'Int64', description: 'Unique identifier assigned on creation.' }),
    name: t.exposeString('name', { description: "The animal's name." }),
    status: t.expose('status', { type: PetStatusEnum, description: 'Status of the pet, set by the client.' }),
    categoryId: t.expose('categoryId', { type: 'Int64', description: 'The category the animal belongs to.' }),
    category: t.relation('category'),
    inventory: t.relation('inventory', {
      nullable: false,
      onNull: 'error',
      description: 'Stock of this pet.',
    }),
  }),
});

// A federation entity (docs/federation.md): a router finds pets by id for other subgraphs' fields.
builder.asEntity(PetType, {
  key: ID_KEY,
  resolveReference: (reference, context, info) =>
    findEntity(context.prisma.pet, 'Pet', reference, context, info),
});

export const PetConnection = builder.connectionObject({ type: PetType, name: 'PetConnection' });

const NewPetInput = builder.inputType('NewPet', {
  description: 'A pet to create.',
  fields: (t) => ({
    name: t.string({ required: true }),
    categoryId: t.field({ type: 'Int64', required: true }),
    status: t.field({ type: PetStatusEnum, description: 'Defaults to available.' }),
  }),
});

const PetPatchInput = builder.inputType('PetPatch', {
  description: 'Changes to a pet: fields left out stay as they are.',
  fields: (t) => ({
    name: t.string(),
    categoryId: t.field({ type: 'Int64' }),
    status: t.field({ type: PetStatusEnum }),
  }),
});

builder.queryFields((t) => ({
  pet: t.prismaField({
    type: 'Pet',
    nullable: true,
    description: 'One pet by id.',
    // Its reason and its sunset are configured: contract/pets-by-id.ts.
    deprecation: 'petsById',
    args: idArg,
    resolve: (query, _root, { id }, { prisma }) =>
      found(findUniqueTogether(prisma.pet, 'id', id, query), 'Pet', id),
  }),
  pets: t.prismaConnection(
    {
      type: 'Pet',
      cursor: 'id',
      ...paging,
      description: 'Pets in id order, optionally filtered.',
      args: {
        status: t.arg({ type: PetStatusEnum }),
        categoryId: t.arg({ type: 'Int64' }),
        ids: t.arg({ type: ['Int64'], description: `Only these pets (at most ${MAX_PAGE_SIZE} ids).` }),
      },
      listPlan: {
        cursor: 'id',
        where: (args) => {
          if (args.ids && args.ids.length > MAX_PAGE_SIZE) {
            throw apiError('tooManyIds', { count: args.ids.length });
          }
          return {
            status: args.status ?? undefined,
            categoryId: args.categoryId ?? undefined,
            id: args.ids ? { in: args.ids } : undefined,
          };
        },
      },
      resolve: (query, _root, args, { prisma, caller }, info) =>
        prisma.pet.findMany({
          ...query,
          orderBy: { id: 'asc' },
          where: listWhere<Prisma.PetWhereInput>(info, args, caller),
        }),
    },
    PetConnection,
  ),
}));

builder.mutationFields((t) => ({
  createPet: t.prismaField({
    type: 'Pet',
    nullable: true,
    description: 'Creates a pet, with an inventory entry at quantity 0.',
    args: { input: t.arg({ type: NewPetInput, required: true }) },
    scope: 'catalog',
    resolve: (query, _root, { input }, context) => createPet(context, input, query),
  }),
  updatePet: t.prismaField({
    type: 'Pet',
    nullable: true,
    description: 'Changes the given fields of a pet.',
    args: { ...idArg, input: t.arg({ type: PetPatchInput, required: true }) },
    scope: 'catalog',
    resolve: (query, _root, { id, input }, { prisma }) => updatePet(prisma, id, input, query),
  }),
  deletePet: t.prismaField({
    type: 'Pet',
    nullable: true,
    description: 'Deletes a pet and its inventory entry; refused while open orders reference it.',
    args: idArg,
    scope: 'catalog',
    resolve: (query, _root, { id }, context) => deletePet(context, id, query),
  }),
}));
