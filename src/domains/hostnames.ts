const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Host names compare case-insensitively and with or without the root's trailing dot. */
export function normaliseHostName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * An RFC 1123 host name of two labels or more (a custom domain is never a bare top-level domain), whose last
 * label is not all digits (so that an IPv4 address is not mistaken for a name).
 */
export function isHostName(name: string): boolean {
  const labels = name.split('.');
  return (
    name.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !/^\d+$/.test(labels.at(-1) as string)
  );
}
