import { apiError, notFound } from '../contract/errors.ts';
import { type Change, orderChange } from '../events/change.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { afterCommit, alsoSelecting, type Writer } from './after-commit.ts';
import { changeInventory } from './inventory.ts';
import { orMissing } from './prisma-errors.ts';
import { ORDERED_QUANTITY, requireQuantity } from './validate.ts';

export type OrderQuery = { include?: Prisma.OrderInclude; select?: Prisma.OrderSelect };

/** What an order change event carries. */
const ORDER_ROW = {
  id: true,
  petId: true,
  quantity: true,
  shipDate: true,
  complete: true,
  version: true,
} as const;

/**
 * Whose orders a caller sees and changes (docs/keys.md): every order (an admin key), those one key placed, or
 * none (an anonymous caller). An order out of reach is answered as one that does not exist.
 */
export type OrderAccess = 'all' | { apiKeyId: bigint } | 'none';

/** The orders within reach, as a filter. */
export function ordersWithin(access: OrderAccess): Prisma.OrderWhereInput {
  if (access === 'all') return {};
  if (access === 'none') return { id: { in: [] } };
  return { apiKeyId: access.apiKeyId };
}

/**
 * Takes the quantity from stock and records the order in one transaction. The stock check is part of the
 * UPDATE's WHERE clause, so concurrent orders serialize on the inventory row and can never oversell.
 */
export async function placeOrder(
  writer: Writer,
  fields: { petId: bigint; quantity?: number | null; shipDate?: Date | null },
  query: OrderQuery = {},
  /** The key placing it, which may then see and change it. */
  apiKeyId: bigint | null = null,
) {
  const { petId } = fields;
  const quantity = requireQuantity('quantity', fields.quantity, ORDERED_QUANTITY);
  const { order, changes } = await writer.prisma.$transaction(async (tx) => {
    const stock = await changeInventory(
      tx,
      { petId, quantity: { gte: quantity } },
      { quantity: { decrement: quantity }, openOrders: { increment: 1 } },
    );
    if (!stock) {
      const now = await tx.inventoryItem.findUnique({ where: { petId }, select: { quantity: true } });
      if (!now) throw apiError('referenceNotFound', { field: 'petId', what: 'pet', id: petId });
      throw apiError('outOfStock', { petId, inStock: now.quantity, requested: quantity });
    }
    const order = await tx.order.create({
      ...alsoSelecting(query, ORDER_ROW),
      data: { petId, quantity, shipDate: fields.shipDate ?? null, apiKeyId },
    });
    return { order, changes: [stock, orderChange(order)] };
  });
  afterCommit(writer, changes);
  return order;
}

/** Completing an order is final: it leaves the pet's open orders and cannot be undone. */
export async function updateOrder(
  writer: Writer,
  id: bigint,
  patch: { complete?: boolean | null; shipDate?: Date | null },
  query: OrderQuery = {},
  access: OrderAccess = 'all',
) {
  if (patch.complete === null) throw apiError('fieldNull', { field: 'complete' });
  const { order, changes } = await writer.prisma.$transaction(async (tx) => {
    const before = await tx.order.findFirst({
      where: { id, ...ordersWithin(access) },
      select: { complete: true, petId: true },
    });
    if (!before) throw notFound('Order', id);
    if (patch.complete === false && before.complete) {
      throw apiError('orderCompletionFinal', { id });
    }
    const changes: Change[] = [];
    if (patch.complete && !before.complete) {
      const { count } = await tx.order.updateMany({
        where: { id, complete: false },
        data: { complete: true },
      });
      if (count === 1 && before.petId !== null) {
        const stock = await changeInventory(tx, { petId: before.petId }, { openOrders: { decrement: 1 } });
        if (stock) changes.push(stock);
      }
    }
    // A cancel may have removed the order since it was read. The version rises once per transaction.
    const order = await orMissing(
      tx.order.update({
        ...alsoSelecting(query, ORDER_ROW),
        where: { id },
        data: { shipDate: patch.shipDate, version: { increment: 1 } },
      }),
      () => notFound('Order', id),
    );
    changes.push(orderChange(order));
    return { order, changes };
  });
  afterCommit(writer, changes);
  return order;
}

/** Cancelling removes an open order and gives its quantity back to stock; a complete order stays. */
export async function cancelOrder(
  writer: Writer,
  id: bigint,
  query: OrderQuery = {},
  access: OrderAccess = 'all',
) {
  const { cancelled, changes } = await writer.prisma.$transaction(async (tx) => {
    // Raising the version takes the order's lock: completed or cancelled meanwhile, it matches nothing.
    const [cancelled] = await tx.order.updateManyAndReturn({
      ...alsoSelecting(query, ORDER_ROW),
      where: { id, complete: false, ...ordersWithin(access) },
      data: { version: { increment: 1 } },
    });
    if (!cancelled) {
      const now = await tx.order.findFirst({
        where: { id, ...ordersWithin(access) },
        select: { complete: true },
      });
      throw now ? apiError('completeOrderNotCancelled', { id }) : notFound('Order', id);
    }
    await tx.order.delete({ where: { id } });
    const changes: Change[] = [orderChange(cancelled, true)];
    if (cancelled.petId !== null) {
      const stock = await changeInventory(
        tx,
        { petId: cancelled.petId },
        { quantity: { increment: cancelled.quantity }, openOrders: { decrement: 1 } },
      );
      if (stock) changes.push(stock);
    }
    return { cancelled, changes };
  });
  afterCommit(writer, changes);
  return cancelled;
}
