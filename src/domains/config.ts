import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config/read.ts';
import { isHostName, normaliseHostName } from './hostnames.ts';

const hostName = z
  .string()
  .transform(normaliseHostName)
  .refine(
    isHostName,
    'must be a host name such as shop.example.com: two or more labels of 1-63 letters, digits or hyphens (no hyphen at either end; IDNs in punycode)',
  );

const redirect = z.strictObject({
  from: hostName,
  to: hostName,
  status: z.literal([301, 302, 307, 308], { error: 'must be one of 301, 302, 307, 308' }),
});

const resolverAddresses = z
  .array(z.string())
  .min(1)
  .refine((servers) => {
    try {
      new Resolver().setServers(servers);
      return true;
    } catch {
      return false;
    }
  }, 'each resolver must be an IP address with an optional port: 127.0.0.1, 127.0.0.1:5353 or [::1]:5353');

const domainsBlock = z
  .strictObject({
    primary: hostName,
    attached: z.array(hostName).default([]),
    redirects: z.array(redirect).default([]),
    platformHost: hostName,
    certificateAuthority: hostName,
    resolvers: resolverAddresses.optional(),
  })
  .superRefine(checkDomainRoles);

/** The configuration file holds a `domains` block; other top-level keys belong to other parts of the gateway. */
const configFile = z.object({ domains: domainsBlock });

export type DomainsConfig = z.infer<typeof domainsBlock>;
export type Redirect = DomainsConfig['redirects'][number];

export class DomainsConfigError extends ConfigError {
  override name = 'DomainsConfigError';
}

/**
 * Each host has one role: served (the primary or an attached domain) or redirected (a redirect's `from`).
 * A redirect must land on a served host, which also rules out chains and loops; those get their own message.
 */
function checkDomainRoles(block: z.output<typeof domainsBlock>, ctx: z.RefinementCtx): void {
  const served = new Set([block.primary]);
  block.attached.forEach((host, index) => {
    if (served.has(host)) {
      const why =
        host === block.primary ? 'it is the primary, which is always attached' : 'it is listed twice';
      ctx.addIssue({ code: 'custom', path: ['attached', index], message: `${host}: ${why}` });
    }
    served.add(host);
  });

  const targets = new Map<string, string>();
  block.redirects.forEach(({ from, to }, index) => {
    const path = ['redirects', index, 'from'];
    if (from === block.primary) {
      ctx.addIssue({ code: 'custom', path, message: `${from} is the primary domain and cannot redirect` });
    } else if (served.has(from)) {
      const message = `${from} is attached and also redirected; remove it from attached (a redirected domain only redirects)`;
      ctx.addIssue({ code: 'custom', path, message });
    } else if (targets.has(from)) {
      ctx.addIssue({ code: 'custom', path, message: `${from} has more than one redirect` });
    } else {
      targets.set(from, to);
    }
  });

  block.redirects.forEach(({ from, to }, index) => {
    if (served.has(to)) return;
    const path = ['redirects', index, 'to'];
    const hops = [from];
    let next = to;
    while (!hops.includes(next) && targets.has(next)) {
      hops.push(next);
      next = targets.get(next) as string;
    }
    const route = [...hops, next].join(' -> ');
    if (hops.includes(next)) {
      ctx.addIssue({ code: 'custom', path, message: `redirect loop: ${route}` });
    } else if (hops.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `redirect chain ${route}; redirect ${from} to ${next} directly`,
      });
    } else {
      const message = `${to} is not attached; add it to attached (a redirect must land on a served domain)`;
      ctx.addIssue({ code: 'custom', path, message });
    }
  });
}

export function parseDomainsConfig(json: unknown, source: string): DomainsConfig {
  const result = configFile.safeParse(json);
  if (!result.success) {
    throw new DomainsConfigError(
      `Invalid domains configuration in ${source}:\n${z.prettifyError(result.error)}`,
    );
  }
  return result.data.domains;
}

export function readDomainsConfigFile(path: string): DomainsConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DomainsConfigError(
      `Cannot read the domains configuration ${path}: ${(error as Error).message}`,
    );
  }
  return parseDomainsConfig(json, path);
}

/** The configuration named by DOMAINS_CONFIG, or null when custom domains are not configured. */
export function loadDomainsConfig(env: NodeJS.ProcessEnv = process.env): DomainsConfig | null {
  return env.DOMAINS_CONFIG ? readDomainsConfigFile(env.DOMAINS_CONFIG) : null;
}
