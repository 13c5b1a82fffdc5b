import { Resolver } from 'node:dns/promises';
import { isHostName, normaliseHostName } from './hostnames.ts';

export type DomainKind = 'apex' | 'subdomain';

export interface RuleResult {
  rule: string;
  passed: boolean;
  detail: string;
  /** What to change in DNS, on failure. */
  fix?: string;
}

export interface Verification {
  domain: string;
  kind: DomainKind;
  passed: boolean;
  results: RuleResult[];
}

export interface VerifyOptions {
  platformHost: string;
  certificateAuthority: string;
  /** DNS servers as `ip` or `ip:port`; the system's when absent. */
  resolvers?: string[];
  /** Overrides the two-label rule of `domainKind`, e.g. for example.co.uk. */
  kind?: DomainKind;
}

type Outcome = Omit<RuleResult, 'rule'>;

const pass = (detail: string): Outcome => ({ passed: true, detail });
const fail = (detail: string, fix: string): Outcome => ({ passed: false, detail, fix });

/**
 * Without a public-suffix list the gateway cannot know where a registered domain starts, so a name of two labels
 * (example.com) is taken for an apex and anything longer for a subdomain; `kind` overrides it.
 */
export function domainKind(domain: string): DomainKind {
  return domain.split('.').length === 2 ? 'apex' : 'subdomain';
}

/** The records found, none when the name or the type does not exist; other DNS failures propagate. */
async function lookup<T>(query: Promise<T[]>): Promise<T[]> {
  try {
    return await query;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
    throw error;
  }
}

async function addressesOf(dns: Resolver, name: string): Promise<string[]> {
  const [v4, v6] = await Promise.all([lookup(dns.resolve4(name)), lookup(dns.resolve6(name))]);
  return [...v4, ...v6].sort();
}

async function checkCname(dns: Resolver, domain: string, platformHost: string): Promise<Outcome> {
  const targets = await lookup(dns.resolveCname(domain));
  const fix = `Add a CNAME record on ${domain} with the value ${platformHost} (TTL 3600).`;
  if (targets.length === 0) return fail(`${domain} has no CNAME record`, fix);
  if (targets.length === 1 && normaliseHostName(targets[0] as string) === platformHost) {
    return pass(`${domain} is a CNAME to ${platformHost}`);
  }
  return fail(
    `${domain} is a CNAME to ${targets.join(', ')}, not ${platformHost}`,
    `Set the CNAME value on ${domain} to exactly ${platformHost}.`,
  );
}

/** Addresses at the name beyond those its CNAME leads to can only come from A/AAAA records beside it. */
async function checkNoAddressBesideCname(dns: Resolver, domain: string): Promise<Outcome> {
  const [targets, addresses] = await Promise.all([
    lookup(dns.resolveCname(domain)),
    addressesOf(dns, domain),
  ]);
  const viaCname = targets.length === 1 ? await addressesOf(dns, targets[0] as string) : [];
  const stray = addresses.filter((address) => !viaCname.includes(address));
  if (stray.length === 0) return pass(`${domain} has no A or AAAA record of its own`);
  return fail(
    `${domain} has A/AAAA records of its own (${stray.join(', ')}); they block the CNAME`,
    `Delete the A and AAAA records on ${domain}; only the CNAME may stay.`,
  );
}

async function checkApexAddresses(dns: Resolver, domain: string, platformHost: string): Promise<Outcome> {
  const [actual, expected] = await Promise.all([addressesOf(dns, domain), addressesOf(dns, platformHost)]);
  if (expected.length === 0) {
    return fail(
      `the platform host ${platformHost} has no A or AAAA record`,
      'Check platformHost in the domains configuration and the resolvers it is looked up with.',
    );
  }
  if (actual.join() === expected.join()) {
    return pass(`${domain} resolves to the addresses of ${platformHost} (${expected.join(', ')})`);
  }
  return fail(
    `${domain} resolves to ${actual.join(', ') || 'no address'}, not to the addresses of ${platformHost} (${expected.join(', ')})`,
    `Add an ALIAS or ANAME record on ${domain} with the value ${platformHost} and delete its other A and AAAA records. ` +
      'Not every DNS provider supports ALIAS/ANAME (also called CNAME flattening); if yours does not, move the ' +
      `domain's DNS to one that does, or use a subdomain such as www.${domain} with a CNAME.`,
  );
}

/** RFC 8659: the relevant CAA set is the domain's own, else that of its closest ancestor that has one. */
async function relevantCaa(dns: Resolver, domain: string) {
  const labels = domain.split('.');
  for (let depth = 0; depth < labels.length; depth++) {
    const owner = labels.slice(depth).join('.');
    const records = await lookup(dns.resolveCaa(owner));
    if (records.length > 0) return { owner, records };
  }
  return null;
}

async function checkCaa(dns: Resolver, domain: string, authority: string): Promise<Outcome> {
  const relevant = await relevantCaa(dns, domain);
  if (!relevant)
    return pass(`no CAA record on ${domain} or its parent domains: any certificate authority may issue`);
  const { owner, records } = relevant;
  // An issue value is the CA's domain, then optional `; key=value` parameters; an empty domain allows no CA.
  const issuers = records.flatMap(({ issue }) =>
    issue === undefined ? [] : [normaliseHostName(issue.split(';')[0] as string)],
  );
  if (issuers.length === 0)
    return pass(`the CAA records on ${owner} have no issue tag, so they do not restrict issuance`);
  if (issuers.includes(authority)) return pass(`the CAA records on ${owner} allow ${authority}`);
  return fail(
    `the CAA records on ${owner} allow only ${issuers.map((issuer) => issuer || 'no authority').join(', ')}, not ${authority}`,
    `Add a CAA record on ${owner}: 0 issue "${authority}".`,
  );
}

async function runRule(rule: string, check: () => Promise<Outcome>): Promise<RuleResult> {
  try {
    return { rule, ...(await check()) };
  } catch (error) {
    const fix = 'Check that the configured resolvers answer, then verify again.';
    return { rule, ...fail(`DNS lookup failed: ${(error as Error).message}`, fix) };
  }
}

/** Checks the DNS of a custom domain against the platform's rules; throws only when the domain is not a host name. */
export async function verifyDomain(domainInput: string, options: VerifyOptions): Promise<Verification> {
  const domain = normaliseHostName(domainInput);
  if (!isHostName(domain)) throw new Error(`${domainInput} is not a domain name such as shop.example.com`);
  const platformHost = normaliseHostName(options.platformHost);
  const certificateAuthority = normaliseHostName(options.certificateAuthority);
  const kind = options.kind ?? domainKind(domain);
  // One Resolver per verification: c-ares caches answers per channel, and a re-verification must see fresh DNS.
  const dns = new Resolver({ timeout: 2000, tries: 2 });
  if (options.resolvers) dns.setServers(options.resolvers);

  const rules: [string, () => Promise<Outcome>][] =
    kind === 'subdomain'
      ? [
          ['CNAME', () => checkCname(dns, domain, platformHost)],
          ['No A/AAAA beside the CNAME', () => checkNoAddressBesideCname(dns, domain)],
        ]
      : [['ALIAS/ANAME addresses', () => checkApexAddresses(dns, domain, platformHost)]];
  rules.push(['CAA', () => checkCaa(dns, domain, certificateAuthority)]);

  const results = await Promise.all(rules.map(([rule, check]) => runRule(rule, check)));
  return { domain, kind, passed: results.every((result) => result.passed), results };
}
