import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();

const PLACE = `mutation($input: NewOrder!) { placeOrder(input: $input) { id petId quantity complete } }`;
const INVENTORY = `query($petId: Int64!) { inventoryItem(petId: $petId) { quantity status } }`;
const COMPLETE = `mutation($id: Int64!) { updateOrder(id: $id, input: { complete: true }) { id complete } }`;
const CANCEL = `mutation($id: Int64!) { cancelOrder(id: $id) { id quantity } }`;

async function petWithStock(quantity: number) {
  const pet = await app.createPet({ name: `stocked-${quantity}` });
  await app.ok(
    `mutation($petId: Int64!, $q: Int!) { updateInventory(petId: $petId, input: { quantity: $q }) { quantity } }`,
    {
      petId: pet.id,
      q: quantity,
    },
  );
  return pet.id as number;
}

const inventoryOf = async (petId: number) =>
  (await app.ok(INVENTORY, { petId })).inventoryItem as { quantity: number; status: string };

describe('orders and stock', () => {
  it('takes the quantity from stock and derives the inventory status', async () => {
    const petId = await petWithStock(3);
    expect(await inventoryOf(petId)).toEqual({ quantity: 3, status: 'available' });

    const { placeOrder } = await app.ok(PLACE, { input: { petId, quantity: 3 } });
    expect(placeOrder).toMatchObject({ petId, quantity: 3, complete: false });
    expect(await inventoryOf(petId)).toEqual({ quantity: 0, status: 'pending' });

    await app.ok(COMPLETE, { id: placeOrder.id });
    expect(await inventoryOf(petId)).toEqual({ quantity: 0, status: 'sold' });
  });

  it('defaults the quantity to 1', async () => {
    const petId = await petWithStock(2);
    const { placeOrder } = await app.ok(PLACE, { input: { petId } });
    expect(placeOrder.quantity).toBe(1);
    expect((await inventoryOf(petId)).quantity).toBe(1);
  });

  it('refuses an order beyond stock with OUT_OF_STOCK and changes nothing', async () => {
    const petId = await petWithStock(2);
    const ordersBefore = await app.count('order');
    const error = await app.fails(PLACE, { input: { petId, quantity: 3 } });
    expect(error).toMatchObject({ code: 'OUT_OF_STOCK', status: 409 });
    expect(error.message).toContain('2 in stock');
    expect(await inventoryOf(petId)).toEqual({ quantity: 2, status: 'available' });
    expect(await app.count('order')).toBe(ordersBefore);
  });

  it.each([0, -1])('refuses quantity %i naming the field, and changes nothing', async (quantity) => {
    const petId = await petWithStock(2);
    const ordersBefore = await app.count('order');
    const error = await app.fails(PLACE, { input: { petId, quantity } });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.message).toMatch(/^quantity: /);
    expect((await inventoryOf(petId)).quantity).toBe(2);
    expect(await app.count('order')).toBe(ordersBefore);
  });

  it('refuses an order for a pet that does not exist', async () => {
    const ordersBefore = await app.count('order');
    const error = await app.fails(PLACE, { input: { petId: 987654321 } });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.message).toContain('petId: pet 987654321 does not exist');
    expect(await app.count('order')).toBe(ordersBefore);
  });

  it('never oversells: 40 concurrent orders against stock 10 accept exactly 10', async () => {
    const petId = await petWithStock(10);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => app.graphql(PLACE, { input: { petId } })),
    );
    const accepted = results.filter((r) => r.body.data?.placeOrder);
    const refused = results.filter((r) => r.body.errors?.[0]?.extensions?.code === 'OUT_OF_STOCK');
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(30);
    expect(await inventoryOf(petId)).toEqual({ quantity: 0, status: 'pending' });
    const { orders } = await app.ok(
      `query($petId: Int64!) { orders(petId: $petId, first: 100) { edges { node { id } } } }`,
      {
        petId,
      },
    );
    expect(orders.edges).toHaveLength(10);
  });

  it('cancelling gives the stock back; a cancelled order is gone', async () => {
    const petId = await petWithStock(5);
    const { placeOrder } = await app.ok(PLACE, { input: { petId, quantity: 4 } });
    const { cancelOrder } = await app.ok(CANCEL, { id: placeOrder.id });
    expect(cancelOrder).toEqual({ id: placeOrder.id, quantity: 4 });
    expect(await inventoryOf(petId)).toEqual({ quantity: 5, status: 'available' });
    expect(
      await app.fails(`query($id: Int64!) { order(id: $id) { id } }`, { id: placeOrder.id }),
    ).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('completion is final: it cannot be undone, and a complete order cannot be cancelled', async () => {
    const petId = await petWithStock(2);
    const { placeOrder } = await app.ok(PLACE, { input: { petId } });
    await app.ok(COMPLETE, { id: placeOrder.id });

    const undo = await app.fails(
      `mutation($id: Int64!) { updateOrder(id: $id, input: { complete: false }) { id } }`,
      {
        id: placeOrder.id,
      },
    );
    expect(undo).toMatchObject({ code: 'CONFLICT', status: 409 });
    const cancel = await app.fails(CANCEL, { id: placeOrder.id });
    expect(cancel).toMatchObject({ code: 'CONFLICT', status: 409 });

    const { order } = await app.ok(`query($id: Int64!) { order(id: $id) { complete } }`, {
      id: placeOrder.id,
    });
    expect(order.complete).toBe(true);
    expect((await inventoryOf(petId)).quantity).toBe(1);
  });

  it('refuses a negative stock count and changes nothing', async () => {
    const petId = await petWithStock(4);
    const error = await app.fails(
      `mutation($petId: Int64!) { updateInventory(petId: $petId, input: { quantity: -1 }) { quantity } }`,
      { petId },
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.message).toMatch(/^quantity: /);
    expect((await inventoryOf(petId)).quantity).toBe(4);
  });

  it('filters inventory by derived status', async () => {
    const sold = await petWithStock(0);
    const available = await petWithStock(1);
    const { inventory } = await app.ok(
      `{ inventory(status: sold, first: 100) { edges { node { petId status } } } }`,
    );
    const petIds = inventory.edges.map((e: { node: { petId: number } }) => e.node.petId);
    expect(petIds).toContain(sold);
    expect(petIds).not.toContain(available);
    expect(inventory.edges.every((e: { node: { status: string } }) => e.node.status === 'sold')).toBe(true);
  });
});

describe('deleting', () => {
  it('refuses to delete a pet with open orders, allows it once they are complete', async () => {
    const petId = await petWithStock(1);
    const { placeOrder } = await app.ok(PLACE, { input: { petId } });
    const error = await app.fails(`mutation($id: Int64!) { deletePet(id: $id) { id } }`, { id: petId });
    expect(error).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(error.message).toContain('1 open order');
    expect(await inventoryOf(petId)).toBeTruthy();

    await app.ok(COMPLETE, { id: placeOrder.id });
    const { deletePet } = await app.ok(`mutation($id: Int64!) { deletePet(id: $id) { id name } }`, {
      id: petId,
    });
    expect(deletePet.id).toBe(petId);
    const { order } = await app.ok(`query($id: Int64!) { order(id: $id) { petId complete } }`, {
      id: placeOrder.id,
    });
    expect(order).toEqual({ petId: null, complete: true });
  });

  it('refuses to delete a category that has pets, and changes nothing', async () => {
    const pet = await app.createPet({ name: 'Keeper' });
    const error = await app.fails(`mutation($id: Int64!) { deleteCategory(id: $id) { id } }`, {
      id: pet.categoryId,
    });
    expect(error).toMatchObject({ code: 'CONFLICT', status: 409 });
    const { category } = await app.ok(`query($id: Int64!) { category(id: $id) { id } }`, {
      id: pet.categoryId,
    });
    expect(category.id).toBe(pet.categoryId);
  });
});
