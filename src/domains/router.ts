import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { sendError } from '../contract/error-response.ts';
import { type ApiError, apiError } from '../contract/errors.ts';
import type { DomainsConfig, Redirect } from './config.ts';

/** Answers the request itself (and returns true) when its Host must be redirected or refused. */
export type HostRouter = (req: IncomingMessage, res: ServerResponse) => boolean;

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** The Host header's name in lower case, without port or trailing dot ([::1] keeps its brackets); null if unusable. */
function hostNameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  try {
    return new URL(`http://${hostHeader}`).hostname.replace(/\.$/, '');
  } catch {
    return null;
  }
}

function isLoopback(hostName: string): boolean {
  if (hostName === 'localhost') return true;
  const address = hostName.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  return family !== 0 && loopbackAddresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The scheme the client used: a TLS-terminating proxy in front of the gateway says so in X-Forwarded-Proto,
 * which is believed only when a proxy is trusted (TRUST_PROXY), as for the client address.
 */
function schemeOf(req: IncomingMessage, trustProxy: boolean): 'http' | 'https' {
  const forwarded = trustProxy ? req.headers['x-forwarded-proto'] : undefined;
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  if (proto === 'http' || proto === 'https') return proto;
  return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
}

function redirectTo(
  req: IncomingMessage,
  res: ServerResponse,
  { to, status }: Redirect,
  trustProxy: boolean,
): true {
  const pathAndQuery = req.url?.startsWith('/') ? req.url : '/';
  res.writeHead(status, {
    location: `${schemeOf(req, trustProxy)}://${to}${pathAndQuery}`,
    'content-length': 0,
  });
  res.end();
  return true;
}

function refuse(res: ServerResponse, refusal: ApiError): true {
  sendError(res, refusal);
  return true;
}

/**
 * Host routing for custom domains, first in the HTTP pipeline. Without configuration every Host is served.
 * With it: loopback hosts, the primary and the attached domains are served, a redirect's `from` is redirected
 * to the same path and query on its `to`, and any other Host is refused with 421.
 * `getConfig` is called per request, so a reloaded configuration applies from the next request on.
 */
export function createHostRouter(
  getConfig: () => DomainsConfig | null,
  { trustProxy = false }: { trustProxy?: boolean } = {},
): HostRouter {
  return (req, res) => {
    const config = getConfig();
    if (!config) return false;
    const hostName = hostNameOf(req.headers.host);
    if (hostName === null) {
      return refuse(res, apiError('hostUnusable', { primary: config.primary }));
    }
    if (isLoopback(hostName) || hostName === config.primary || config.attached.includes(hostName)) {
      return false;
    }
    const redirect = config.redirects.find(({ from }) => from === hostName);
    if (redirect) return redirectTo(req, res, redirect, trustProxy);
    return refuse(res, apiError('hostNotServed', { host: hostName, primary: config.primary }));
  };
}
