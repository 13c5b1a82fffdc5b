import type { Db } from '../../src/db/client.ts';
import type { Limits, Plan } from '../../src/keys/plans.ts';
import { createApiKey } from '../../src/keys/repository.ts';

/** Issues a real API key in the test database and returns the key itself. */
export async function createTestKey(prisma: Db, plan: Plan, limits?: Limits): Promise<string> {
  return (await createApiKey(prisma, { plan, limits, name: `test ${plan}` })).key;
}
