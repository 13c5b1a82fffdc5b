import type { Db } from '../../src/db/client.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { overHttp, requestHelpers } from '../support/requests.ts';

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
  const { status, headers, text } = await requestHelpers(overHttp(gateway.url), order.apiKey).post(
    '/store/orders',
    { petId: order.petId },
    { headers: { 'idempotency-key': order.key } },
  );
  return {
    status,
    replayed: headers.get('idempotent-replayed') === 'true',
    location: headers.get('location'),
    text,
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
