// Operations that are not yet stable, marked in the GraphQL descriptions and as `x-stability` in OpenAPI.
export type Stability = 'experimental' | 'beta';

export const STABILITY: Partial<Record<string, Stability>> = {
  updateInventory: 'experimental',
  inventory: 'beta',
  inventoryItem: 'beta',
};

/** The description of a root field, with its stability mark when it has one. */
export function describe(field: string, description: string): string {
  const stability = STABILITY[field];
  return stability
    ? `${description}\n\nStability: ${stability} (may change without a deprecation period).`
    : description;
}
