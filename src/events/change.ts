// What a committed write changed, as published to subscribers. Ids travel as strings of digits: the events
// cross processes as JSON, which has no 64-bit integers.

/** An inventory row after a committed change; `deleted` when its pet was deleted. */
export interface InventoryChange {
  kind: 'inventory';
  petId: string;
  quantity: number;
  openOrders: number;
  deleted: boolean;
  version: number;
}

/** An order after a committed change; `cancelled` when it was cancelled (and so removed). */
export interface OrderChange {
  kind: 'order';
  id: string;
  petId: string | null;
  quantity: number;
  shipDate: string | null;
  complete: boolean;
  cancelled: boolean;
  version: number;
}

export type Change = InventoryChange | OrderChange;

/** The row a change belongs to: its versions count the changes of that row alone. */
export const rowOf = (change: Change) =>
  change.kind === 'inventory' ? `inventory:${change.petId}` : `order:${change.id}`;

export function inventoryChange(
  row: { petId: bigint; quantity: number; openOrders: number; version: number },
  deleted = false,
): InventoryChange {
  const { petId, quantity, openOrders, version } = row;
  return { kind: 'inventory', petId: String(petId), quantity, openOrders, deleted, version };
}

export function orderChange(
  order: {
    id: bigint;
    petId: bigint | null;
    quantity: number;
    shipDate: Date | null;
    complete: boolean;
    version: number;
  },
  cancelled = false,
): OrderChange {
  return {
    kind: 'order',
    id: String(order.id),
    petId: order.petId === null ? null : String(order.petId),
    quantity: order.quantity,
    shipDate: order.shipDate?.toISOString() ?? null,
    complete: order.complete,
    cancelled,
    version: order.version,
  };
}

/** A change read back from JSON another process sent; undefined when it is not one. */
export function parseChange(value: unknown): Change | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const change = value as Partial<Change>;
  if (typeof change.version !== 'number') return undefined;
  if (change.kind === 'inventory' && typeof change.petId === 'string') return change as InventoryChange;
  if (change.kind === 'order' && typeof change.id === 'string') return change as OrderChange;
  return undefined;
}
