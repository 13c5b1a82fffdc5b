import type { Limits, Plan } from '../../src/contract/plans.ts';
import type { Db } from '../../src/db/client.ts';
import { createApiKey } from '../../src/keys/repository.ts';

/** Issues a real API key in the test database and returns the key itself. */
export async function createTestKey(prisma: Db, plan: Plan, limits?: Limits): Promise<string> {
  return (await createApiKey(prisma, { plan, limits, name: `test ${plan}` })).key;
}
