import { notFound } from '../contract/errors.ts';
import type { Db } from '../db/client.ts';
import type { PetStatus, Prisma } from '../generated/sqlite/client.ts';
import { orMissing } from './prisma-errors.ts';
import { requireQuantity } from './validate.ts';

/** The contract's rule: available while in stock; at 0, pending while open orders exist, else sold. */
export function inventoryStatus(item: { quantity: number; openOrders: number }): PetStatus {
  if (item.quantity > 0) return 'available';
  return item.openOrders > 0 ? 'pending' : 'sold';
}

/** The same rule as a filter, so that listing by status stays in SQL. */
export function inventoryStatusWhere(status: PetStatus): Prisma.InventoryItemWhereInput {
  switch (status) {
    case 'available':
      return { quantity: { gt: 0 } };
    case 'pending':
      return { quantity: 0, openOrders: { gt: 0 } };
    case 'sold':
      return { quantity: 0, openOrders: 0 };
  }
}

export function setStock(prisma: Db, petId: bigint, quantity: number, query: InventoryQuery = {}) {
  requireQuantity('quantity', quantity, 0);
  return orMissing(prisma.inventoryItem.update({ ...query, where: { petId }, data: { quantity } }), () =>
    notFound('Pet', petId),
  );
}

export type InventoryQuery = { include?: Prisma.InventoryItemInclude; select?: Prisma.InventoryItemSelect };
