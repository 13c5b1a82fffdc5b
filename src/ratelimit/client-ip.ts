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
  if (trustedProxyHops === 0) return withoutIpv4Mapping(socketAddress ?? 'unknown');
  const forwarded = (request.headers.get('x-forwarded-for') ?? '').split(',');
  const chain = [...forwarded.map((address) => address.trim()).filter(Boolean), socketAddress ?? 'unknown'];
  return withoutIpv4Mapping(chain[Math.max(0, chain.length - 1 - trustedProxyHops)] ?? 'unknown');
}

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; it counts as a.b.c.d. */
function withoutIpv4Mapping(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}
