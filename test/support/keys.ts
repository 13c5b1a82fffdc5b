import type { Limits, Plan } from '../../src/contract/plans.ts';
import { SCOPES, type Scope } from '../../src/contract/scopes.ts';
import type { Db } from '../../src/db/client.ts';
import { createApiKey } from '../../src/keys/repository.ts';

/**
 * Issues a real API key in the test database and returns the key itself. Test keys have every scope unless
 * told otherwise: the tests of scopes say which they give.
 */
export async function createTestKey(
  prisma: Db,
  plan: Plan,
  limits?: Limits,
  scopes: readonly Scope[] = SCOPES,
): Promise<string> {
  return (await createApiKey(prisma, { plan, limits, name: `test ${plan}`, scopes })).key;
}
