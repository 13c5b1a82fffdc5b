import { ApiError, invalid, notFound } from '../contract/errors.ts';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { orMissing } from './prisma-errors.ts';
import { requireQuantity } from './validate.ts';

export type OrderQuery = { include?: Prisma.OrderInclude; select?: Prisma.OrderSelect };

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
export function placeOrder(
  prisma: Db,
  fields: { petId: bigint; quantity?: number | null; shipDate?: Date | null },
  query: OrderQuery = {},
  /** The key placing it, which may then see and change it. */
  apiKeyId: bigint | null = null,
) {
  const { petId } = fields;
  const quantity = requireQuantity('quantity', fields.quantity ?? 1, 1);
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.inventoryItem.updateMany({
      where: { petId, quantity: { gte: quantity } },
      data: { quantity: { decrement: quantity }, openOrders: { increment: 1 } },
    });
    if (count === 0) {
      const stock = await tx.inventoryItem.findUnique({ where: { petId }, select: { quantity: true } });
      if (!stock) throw invalid('petId', `pet ${petId} does not exist`);
      throw new ApiError(
        'OUT_OF_STOCK',
        `Pet ${petId} has ${stock.quantity} in stock; ${quantity} requested. Order at most ${stock.quantity}.`,
      );
    }
    return tx.order.create({
      ...query,
      data: { petId, quantity, shipDate: fields.shipDate ?? null, apiKeyId },
    });
  });
}

/** Completing an order is final: it leaves the pet's open orders and cannot be undone. */
export function updateOrder(
  prisma: Db,
  id: bigint,
  patch: { complete?: boolean | null; shipDate?: Date | null },
  query: OrderQuery = {},
  access: OrderAccess = 'all',
) {
  if (patch.complete === null) throw invalid('complete', 'must not be null');
  return prisma.$transaction(async (tx) => {
    const order = await tx.order.findFirst({
      where: { id, ...ordersWithin(access) },
      select: { complete: true, petId: true },
    });
    if (!order) throw notFound('Order', id);
    if (patch.complete === false && order.complete) {
      throw new ApiError('CONFLICT', `Order ${id} is complete; completion cannot be undone`);
    }
    if (patch.complete && !order.complete) {
      const { count } = await tx.order.updateMany({
        where: { id, complete: false },
        data: { complete: true },
      });
      if (count === 1 && order.petId !== null) {
        await tx.inventoryItem.updateMany({
          where: { petId: order.petId },
          data: { openOrders: { decrement: 1 } },
        });
      }
    }
    // A cancel may have removed the order since it was read.
    return orMissing(tx.order.update({ ...query, where: { id }, data: { shipDate: patch.shipDate } }), () =>
      notFound('Order', id),
    );
  });
}

/** Cancelling removes an open order and gives its quantity back to stock; a complete order stays. */
export function cancelOrder(prisma: Db, id: bigint, query: OrderQuery = {}, access: OrderAccess = 'all') {
  return prisma.$transaction(async (tx) => {
    const order = await tx.order.findFirst({
      where: { id, ...ordersWithin(access) },
      select: { complete: true, petId: true, quantity: true },
    });
    if (!order) throw notFound('Order', id);
    const completed = () => new ApiError('CONFLICT', `Order ${id} is complete and cannot be cancelled`);
    if (order.complete) throw completed();
    const cancelled = await orMissing(tx.order.findUniqueOrThrow({ ...query, where: { id } }), () =>
      notFound('Order', id),
    );
    const { count } = await tx.order.deleteMany({ where: { id, complete: false } });
    if (count === 0) {
      // Completed or cancelled by a concurrent request since it was read.
      const now = await tx.order.findUnique({ where: { id }, select: { complete: true } });
      throw now ? completed() : notFound('Order', id);
    }
    if (order.petId !== null) {
      await tx.inventoryItem.updateMany({
        where: { petId: order.petId },
        data: { quantity: { increment: order.quantity }, openOrders: { decrement: 1 } },
      });
    }
    return cancelled;
  });
}
