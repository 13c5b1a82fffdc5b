import { notFound } from '../contract/errors.ts';
import { type InventoryChange, inventoryChange } from '../events/change.ts';
import type { PetStatus, Prisma } from '../generated/sqlite/client.ts';
import { afterCommit, alsoSelecting, type Writer } from './after-commit.ts';
import { orMissing } from './prisma-errors.ts';
import { requireQuantity, STOCK_QUANTITY } from './validate.ts';

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

/** What an inventory change event carries. */
export const INVENTORY_ROW = { petId: true, quantity: true, openOrders: true, version: true } as const;

export async function setStock(writer: Writer, petId: bigint, quantity: number, query: InventoryQuery = {}) {
  requireQuantity('quantity', quantity, STOCK_QUANTITY);
  const item = await orMissing(
    writer.prisma.inventoryItem.update({
      ...alsoSelecting(query, INVENTORY_ROW),
      where: { petId },
      data: { quantity, version: { increment: 1 } },
    }),
    () => notFound('Pet', petId),
  );
  afterCommit(writer, [inventoryChange(item)]);
  return item;
}

/**
 * Inside a transaction: applies `data` to a pet's inventory row, raising its version in the same statement
 * (which takes the row's lock until commit), and answers the row as the transaction leaves it; undefined when
 * `where` matched no row.
 */
export async function changeInventory(
  tx: Prisma.TransactionClient,
  where: Prisma.InventoryItemWhereInput & { petId: bigint },
  data: Prisma.InventoryItemUpdateManyMutationInput,
  { deleted = false } = {},
): Promise<InventoryChange | undefined> {
  const [row] = await tx.inventoryItem.updateManyAndReturn({
    where,
    data: { ...data, version: { increment: 1 } },
    select: INVENTORY_ROW,
  });
  return row && inventoryChange(row, deleted);
}

export type InventoryQuery = { include?: Prisma.InventoryItemInclude; select?: Prisma.InventoryItemSelect };
