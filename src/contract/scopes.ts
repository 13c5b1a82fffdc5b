// What an API key may do (docs/keys.md). Every key reads; `orders` places, changes and cancels its own orders,
// `catalog` writes pets, categories and inventory, `admin` does everything, the key list and every order included.
export const SCOPES = ['read', 'orders', 'catalog', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes of a key created without `--scopes`. */
export const DEFAULT_SCOPES: readonly Scope[] = ['read', 'orders'];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Whether a key with `scopes` may use what needs `needed`: admin may use everything. */
export const grants = (scopes: readonly Scope[], needed: Scope): boolean =>
  scopes.includes(needed) || scopes.includes('admin');

/**
 * The scopes of a comma-separated list, in SCOPES order, `read` always among them (reads are open to everyone).
 * Throws naming an unknown scope.
 */
export function parseScopes(text: string): Scope[] {
  const named = text
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  const unknown = named.find((scope) => !isScope(scope));
  if (unknown !== undefined)
    throw new Error(`unknown scope "${unknown}": the scopes are ${SCOPES.join(', ')}`);
  return SCOPES.filter((scope) => scope === 'read' || named.includes(scope));
}

/** The stored form of a key's scopes. */
export const scopesText = (scopes: readonly Scope[]): string => scopes.join(',');
