import type { Caller } from '../../contract/caller.ts';
import { notFound } from '../../contract/errors.ts';
import { grants, type Scope } from '../../contract/scopes.ts';
import { keyRevoked, scopeLost } from '../../contract/streams.ts';
import type { Change, InventoryChange, OrderChange } from '../../events/change.ts';
import type { Guard } from '../../events/feed.ts';
import type { KeyWatch } from '../../keys/key-watch.ts';
import { inventoryStatus } from '../../store/inventory.ts';
import { ordersWithin } from '../../store/orders.ts';
import { builder } from '../builder.ts';
import { idArg } from './args.ts';
import { orderAccessOf } from './order.ts';
import { PetStatusEnum } from './pet.ts';

// The events are snapshots taken in the writing transaction, not rows read again when they are sent: a read
// at sending time could show a later change than the one the event is about.

const InventoryChangeType = builder.objectRef<InventoryChange>('InventoryChange').implement({
  description: "A pet's stock as a committed change left it.",
  fields: (t) => ({
    petId: t.field({ type: 'Int64', resolve: (change) => BigInt(change.petId) }),
    quantity: t.exposeInt('quantity', { description: 'Stock count after the change.' }),
    status: t.field({
      type: PetStatusEnum,
      description: 'available while in stock; at 0, pending while open orders exist, else sold.',
      resolve: inventoryStatus,
    }),
    deleted: t.exposeBoolean('deleted', { description: 'The pet was deleted: its last change.' }),
    version: t.exposeInt('version', {
      description: "Counts the entry's committed changes: each change is one more than the one before it.",
    }),
  }),
});

const OrderChangeType = builder.objectRef<OrderChange>('OrderChange').implement({
  description: 'An order as a committed change left it.',
  fields: (t) => ({
    id: t.field({ type: 'Int64', resolve: (change) => BigInt(change.id) }),
    petId: t.field({
      type: 'Int64',
      nullable: true,
      resolve: (change) => (change.petId === null ? null : BigInt(change.petId)),
    }),
    quantity: t.exposeInt('quantity'),
    shipDate: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (change) => (change.shipDate === null ? null : new Date(change.shipDate)),
    }),
    complete: t.exposeBoolean('complete'),
    cancelled: t.exposeBoolean('cancelled', { description: 'The order was cancelled: its last change.' }),
    version: t.exposeInt('version', {
      description: "Counts the order's committed changes: each change is one more than the one before it.",
    }),
  }),
});

/**
 * Ends a key's stream once the key is revoked (UNAUTHENTICATED) or has lost `needs` (FORBIDDEN), as its requests
 * would then be refused. Anonymous streams have no key to lose.
 */
function keyGuard(caller: Caller, keys: KeyWatch, needs?: () => Scope | undefined): Guard | undefined {
  if (caller.kind !== 'key') return undefined;
  return (end) =>
    keys.watch(caller.keyId, (standing) => {
      const scope = needs?.();
      if (standing.revoked) end(keyRevoked());
      else if (scope && !grants(standing.scopes, scope)) end(scopeLost(scope));
    });
}

const isInventory = (change: Change): change is InventoryChange => change.kind === 'inventory';
const isOrder = (change: Change): change is OrderChange => change.kind === 'order';

builder.subscriptionFields((t) => ({
  inventoryChanged: t.field({
    type: InventoryChangeType,
    description:
      "A pet's stock after each committed change (orders placed, completed or cancelled, stock set, the pet created or deleted), in commit order; without petId, every pet's. With petId, the stream completes after the pet's deletion. Over Server-Sent Events: docs/subscriptions.md.",
    args: { petId: t.arg({ type: 'Int64' }) },
    subscribe: async (_root, { petId }, { prisma, feed, caller, keys }) => {
      const guard = keyGuard(caller, keys);
      if (petId == null) {
        return feed.watch({
          accepts: isInventory,
          guard,
          baseline: async () => {
            const rows = await prisma.inventoryItem.findMany({ select: { petId: true, version: true } });
            return new Map(rows.map((row) => [`inventory:${row.petId}`, row.version]));
          },
        });
      }
      const watched = String(petId);
      return feed.watchRow({
        row: `inventory:${watched}`,
        version: async () =>
          (await prisma.inventoryItem.findUnique({ where: { petId }, select: { version: true } }))?.version,
        accepts: (change): change is InventoryChange => isInventory(change) && change.petId === watched,
        isLast: (change) => change.deleted,
        missing: () => notFound('Pet', petId),
        guard,
      });
    },
    resolve: (change) => change,
  }),
  orderChanged: t.field({
    type: OrderChangeType,
    description:
      'An order after each committed change (ship date, completion, cancellation), in commit order, completing after its cancellation; a key watches the orders it may read. Over Server-Sent Events: docs/subscriptions.md.',
    args: idArg,
    subscribe: async (_root, { id }, { prisma, feed, caller, keys }) => {
      // A key watches the orders it may read (docs/keys.md); any other is answered as one that does not exist.
      const where = { id, ...ordersWithin(orderAccessOf(caller)) };
      const watched = String(id);
      let placedBy: bigint | null | undefined;
      const ownOrder = () => caller.kind === 'key' && placedBy === caller.keyId;
      return feed.watchRow({
        row: `order:${watched}`,
        version: async () => {
          const order = await prisma.order.findFirst({ where, select: { version: true, apiKeyId: true } });
          placedBy = order?.apiKeyId;
          return order?.version;
        },
        // Another key's order is watched by an admin key only.
        guard: keyGuard(caller, keys, () => (ownOrder() ? undefined : 'admin')),
        accepts: (change): change is OrderChange => isOrder(change) && change.id === watched,
        isLast: (change) => change.cancelled,
        missing: () => notFound('Order', id),
      });
    },
    resolve: (change) => change,
  }),
}));
