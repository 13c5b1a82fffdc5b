/**
 * The client's address. With `trustedProxyHops` = N > 0 the gateway sits behind N proxies of its own,
 * each appending the address it received from to X-Forwarded-For: the last N addresses of the chain
 * (socket included) are those proxies, the one before them is the client. Anything further left was
 * written by the client and is ignored. With 0, X-Forwarded-For is not read at all.
 */
export function clientIp(
  request: Request,
  socketAddress: string | undefined,
  trustedProxyHops: number,
): string {
  const forwarded = trustedProxyHops > 0 ? (request.headers.get('x-forwarded-for') ?? '').split(',') : [];
  const chain = [...forwarded.map((address) => address.trim()).filter(Boolean), socketAddress ?? 'unknown'];
  const ip = chain[Math.max(0, chain.length - 1 - trustedProxyHops)] ?? 'unknown';
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; count it as a.b.c.d.
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}
