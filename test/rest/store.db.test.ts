import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { expectErrorObject, useRestClient } from './client.ts';

const app = useTestApp();
const rest = useRestClient(app);

/** A pet with `quantity` in stock. */
async function stocked(name: string, quantity: number) {
  const pet = await app.createPet({ name });
  expect((await rest.put(`/store/inventory/${pet.id}`, { quantity })).status).toBe(200);
  return pet;
}

describe('inventory', () => {
  it('sets and reads the stock of a pet; the status follows the quantity', async () => {
    const pet = await app.createPet({ name: 'Stocky' });
    expect((await rest.get(`/store/inventory/${pet.id}`)).body).toEqual({
      petId: pet.id,
      quantity: 0,
      status: 'sold',
    });
    const updated = await rest.put(`/store/inventory/${pet.id}`, { quantity: 3 });
    expect(updated.body).toEqual({ petId: pet.id, quantity: 3, status: 'available' });
    const { inventoryItem } = await app.ok(`query($id: Int64!) { inventoryItem(petId: $id) { quantity } }`, {
      id: pet.id,
    });
    expect(inventoryItem.quantity).toBe(3);
  });

  it('refuses a negative quantity and a missing pet, changing nothing', async () => {
    const pet = await stocked('Firm', 2);
    const before = await app.snapshot();
    const negative = await rest.put(`/store/inventory/${pet.id}`, { quantity: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toMatch(/^quantity: /);
    expect((await rest.put('/store/inventory/987654', { quantity: 1 })).status).toBe(404);
    expect((await rest.get('/store/inventory/987654')).status).toBe(404);
    expect(await app.snapshot()).toEqual(before);
  });

  it('refuses a quantity above the documented maximum from the body schema, naming it, changing nothing', async () => {
    const pet = await stocked('Capped', 2);
    const before = await app.snapshot();
    // 2^31 does not fit GraphQL's Int: it is told the same range.
    for (const quantity of [1_000_001, 2 ** 31]) {
      const refused = await rest.put(`/store/inventory/${pet.id}`, { quantity });
      expectErrorObject(
        refused,
        'VALIDATION_FAILED',
        `quantity: must be a whole number from 0 to 1000000 (got ${quantity})`,
      );
    }
    expect(await app.snapshot()).toEqual(before);
  });

  it('lists entries by status and pages them with Link', async () => {
    await stocked('Listed', 1);
    const available = (await rest.get('/store/inventory?status=available')).body as { status: string }[];
    expect(available.length).toBeGreaterThan(0);
    expect(available.every((item) => item.status === 'available')).toBe(true);
    const first = await rest.get('/store/inventory?limit=1');
    expect(first.body).toHaveLength(1);
    expect(first.headers.get('link')).toMatch(/^<\/store\/inventory\?limit=1&cursor=[^>]+>; rel="next"$/);
  });
});

describe('orders', () => {
  it('places an order: 201, Location, stock taken; GraphQL sees the order', async () => {
    const pet = await stocked('Orderable', 5);
    const placed = await rest.post('/store/orders', {
      petId: pet.id,
      quantity: 2,
      shipDate: '2026-12-01T10:00:00Z',
    });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({
      id: expect.any(Number),
      petId: pet.id,
      quantity: 2,
      shipDate: '2026-12-01T10:00:00.000Z',
      complete: false,
    });
    expect(placed.headers.get('location')).toBe(`/store/orders/${placed.body.id}`);
    expect((await rest.get(`/store/inventory/${pet.id}`)).body.quantity).toBe(3);
    const { order } = await app.ok(`query($id: Int64!) { order(id: $id) { quantity complete } }`, {
      id: placed.body.id,
    });
    expect(order).toEqual({ quantity: 2, complete: false });
  });

  it('reads what GraphQL placed, without the fields that have no value', async () => {
    const pet = await stocked('Quiet', 1);
    const { placeOrder } = await app.ok(
      `mutation($petId: Int64!) { placeOrder(input: { petId: $petId }) { id } }`,
      {
        petId: pet.id,
      },
    );
    const { body } = await rest.get(`/store/orders/${placeOrder.id}`);
    expect(body).toEqual({ id: placeOrder.id, petId: pet.id, quantity: 1, complete: false });
  });

  it('refuses an order beyond stock with 409 OUT_OF_STOCK and an unknown pet with 400, changing nothing', async () => {
    const pet = await stocked('Scarce', 1);
    const before = await app.snapshot();
    const refused = await rest.post('/store/orders', { petId: pet.id, quantity: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('OUT_OF_STOCK');
    const unknown = await rest.post('/store/orders', { petId: 987654 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^petId: /);
    const zero = await rest.post('/store/orders', { petId: pet.id, quantity: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toMatch(/^quantity: /);
    expect(await app.snapshot()).toEqual(before);
  });

  it('refuses an order above the documented maximum quantity, naming it, changing nothing', async () => {
    const pet = await stocked('Plenty', 1_000_000);
    const before = await app.snapshot();
    const refused = await rest.post('/store/orders', { petId: pet.id, quantity: 1_000_001 });
    expectErrorObject(
      refused,
      'VALIDATION_FAILED',
      'quantity: must be a whole number from 1 to 1000000 (got 1000001)',
    );
    expect(await app.snapshot()).toEqual(before);
  });

  it('lists orders by pet and completeness, paged with Link', async () => {
    const pet = await stocked('Popular', 10);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await rest.post('/store/orders', { petId: pet.id })).body.id);
    await rest.patch(`/store/orders/${ids[0]}`, { complete: true });

    const open = (await rest.get(`/store/orders?petId=${pet.id}&complete=false`)).body as { id: number }[];
    expect(open.map((order) => order.id)).toEqual(ids.slice(1));
    const first = await rest.get(`/store/orders?petId=${pet.id}&limit=2`);
    expect(first.body.map((order: { id: number }) => order.id)).toEqual(ids.slice(0, 2));
    const next = first.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    expect(next).toMatch(new RegExp(`^/store/orders\\?petId=${pet.id}&limit=2&cursor=`));
    expect((await rest.get(next as string)).body.map((order: { id: number }) => order.id)).toEqual(
      ids.slice(2),
    );
  });

  it('completes an order for good; a complete order can neither reopen nor be cancelled', async () => {
    const pet = await stocked('Final', 1);
    const { id } = (await rest.post('/store/orders', { petId: pet.id })).body;
    const completed = await rest.patch(`/store/orders/${id}`, { complete: true });
    expect(completed.status).toBe(200);
    expect(completed.body.complete).toBe(true);
    const before = await app.snapshot();
    const reopen = await rest.patch(`/store/orders/${id}`, { complete: false });
    expect(reopen.status).toBe(409);
    expect(reopen.body.code).toBe('CONFLICT');
    const cancel = await rest.delete(`/store/orders/${id}`);
    expect(cancel.status).toBe(409);
    expect(await app.snapshot()).toEqual(before);
  });

  it('cancels an open order: 204, its quantity back in stock; then 404', async () => {
    const pet = await stocked('Returned', 4);
    const { id } = (await rest.post('/store/orders', { petId: pet.id, quantity: 3 })).body;
    expect((await rest.delete(`/store/orders/${id}`)).status).toBe(204);
    expect((await rest.get(`/store/inventory/${pet.id}`)).body.quantity).toBe(4);
    expect((await rest.get(`/store/orders/${id}`)).status).toBe(404);
    expect((await rest.patch(`/store/orders/${id}`, { complete: true })).status).toBe(404);
  });

  it('refuses to delete a pet while an open order references it: 409, nothing deleted', async () => {
    const pet = await stocked('Wanted', 1);
    await rest.post('/store/orders', { petId: pet.id });
    const before = await app.snapshot();
    const refused = await rest.delete(`/pets/${pet.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(await app.snapshot()).toEqual(before);
  });

  it('changes and removes the ship date', async () => {
    const pet = await stocked('Shipped', 1);
    const { id } = (await rest.post('/store/orders', { petId: pet.id })).body;
    const dated = await rest.patch(`/store/orders/${id}`, { shipDate: '2027-01-02T03:04:05+01:00' });
    expect(dated.body.shipDate).toBe('2027-01-02T02:04:05.000Z');
    const undated = await rest.patch(`/store/orders/${id}`, { shipDate: null });
    expect(undated.body).not.toHaveProperty('shipDate');
    const bad = await rest.patch(`/store/orders/${id}`, { shipDate: 'next week' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^shipDate: /);
  });
});
