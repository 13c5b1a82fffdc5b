import { found } from '../../contract/errors.ts';
import { describe } from '../../contract/stability.ts';
import { findUniqueTogether } from '../../db/read-together.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { PetStatus } from '../../generated/sqlite/enums.ts';
import { inventoryStatus, inventoryStatusWhere, setStock } from '../../store/inventory.ts';
import { builder } from '../builder.ts';
import { listWhere } from '../list-where.ts';
import { paging } from '../paging.ts';
import { petIdArg } from './args.ts';
import { PetStatusEnum } from './pet.ts';

export const InventoryItemType = builder.prismaObject('InventoryItem', {
  description: 'Stock of one pet.',
  fields: (t) => ({
    petId: t.expose('petId', { type: 'Int64', description: 'The animal this entry tracks.' }),
    quantity: t.exposeInt('quantity', { description: 'Current stock count.' }),
    status: t.field({
      type: PetStatusEnum,
      description: 'available while in stock; at 0, pending while open orders exist, else sold.',
      select: { quantity: true, openOrders: true },
      resolve: inventoryStatus,
      // The same rule as the status filter's, for the list planner.
      derived: {
        values: Object.values(PetStatus),
        where: (status) => inventoryStatusWhere(status as PetStatus),
      },
    }),
    pet: t.relation('pet'),
  }),
});

const InventoryConnection = builder.connectionObject({
  type: InventoryItemType,
  name: 'InventoryConnection',
});

const InventoryUpdateInput = builder.inputType('InventoryUpdate', {
  description: 'The new stock count of a pet.',
  fields: (t) => ({ quantity: t.int({ required: true, description: 'The new stock count (>= 0).' }) }),
});

builder.queryFields((t) => ({
  inventory: t.prismaConnection(
    {
      type: 'InventoryItem',
      cursor: 'petId',
      ...paging,
      description: describe('inventory', 'Inventory entries in pet id order, optionally filtered by status.'),
      args: { status: t.arg({ type: PetStatusEnum }) },
      listPlan: {
        cursor: 'petId',
        where: ({ status }) => (status ? inventoryStatusWhere(status) : {}),
      },
      resolve: (query, _root, args, { prisma, caller }, info) =>
        prisma.inventoryItem.findMany({
          ...query,
          orderBy: { petId: 'asc' },
          where: listWhere<Prisma.InventoryItemWhereInput>(info, args, caller),
        }),
    },
    InventoryConnection,
  ),
  inventoryItem: t.prismaField({
    type: 'InventoryItem',
    nullable: true,
    description: describe('inventoryItem', 'The inventory entry of one pet.'),
    args: petIdArg,
    resolve: (query, _root, { petId }, { prisma }) =>
      found(findUniqueTogether(prisma.inventoryItem, 'petId', petId, query), 'Pet', petId),
  }),
}));

builder.mutationFields((t) => ({
  updateInventory: t.prismaField({
    type: 'InventoryItem',
    nullable: true,
    description: describe('updateInventory', 'Sets the stock count of a pet.'),
    args: { ...petIdArg, input: t.arg({ type: InventoryUpdateInput, required: true }) },
    scope: 'catalog',
    resolve: (query, _root, { petId, input }, context) => setStock(context, petId, input.quantity, query),
  }),
}));
