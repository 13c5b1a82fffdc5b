import type { Db } from '../../src/db/client.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';

/** Gateway processes on one database, for the tests of keyed writes across processes; `cleanUp` ends them all. */
export function gatewaysOn(databaseUrl: () => string) {
  const started: GatewayProcess[] = [];
  return {
    started,
    start: async () => {
      const gateway = await startGatewayProcess({
        DATABASE_URL: databaseUrl(),
        SEED_DEMO_DATA: 'false',
        PLACE_ORDER_PER_MINUTE: '100000',
      });
      started.push(gateway);
      return gateway;
    },
    cleanUp: async () => {
      for (const gateway of started) await gateway.cleanUp();
    },
  };
}

/** `POST /store/orders` for `petId` with an Idempotency-Key, as the client sees the answer. */
export async function placeKeyedOrder(
  gateway: GatewayProcess,
  order: { apiKey: string; petId: number; key: string },
) {
  const response = await fetch(`${gateway.url}/store/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': order.apiKey, 'idempotency-key': order.key },
    body: JSON.stringify({ petId: order.petId }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    location: response.headers.get('location'),
    text: await response.text(),
  };
}

/** The pet's orders and its stock, read from the database. */
export async function ordersAndStock(prisma: Db, petId: number) {
  const [orders, stock] = await Promise.all([
    prisma.order.count({ where: { petId: BigInt(petId) } }),
    prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } }),
  ]);
  return { orders, stock: stock.quantity };
}
