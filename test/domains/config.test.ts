import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainsConfigError, loadDomainsConfig, parseDomainsConfig } from '../../src/domains/config.ts';

const valid = {
  primary: 'shop.example.com',
  attached: ['example.com', 'www.example.com'],
  redirects: [{ from: 'old-shop.example.net', to: 'shop.example.com', status: 301 }],
  platformHost: 'edge.petstore-platform.test',
  certificateAuthority: 'letsencrypt.org',
  resolvers: ['127.0.0.1:5353', '[::1]:53', '10.0.0.2'],
};

/** The validation message for a `domains` block that differs from the valid one by `changes`. */
function errorFor(changes: Record<string, unknown>): string {
  try {
    parseDomainsConfig({ domains: { ...valid, ...changes } }, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(DomainsConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('domains configuration', () => {
  it('accepts a valid block, normalising host names (case, trailing dot) and keeping other top-level keys out', () => {
    const config = parseDomainsConfig(
      {
        port: 4000,
        domains: { ...valid, primary: 'Shop.Example.COM.', attached: ['EXAMPLE.com'], redirects: [] },
      },
      'test.json',
    );
    expect(config).toEqual({
      ...valid,
      primary: 'shop.example.com',
      attached: ['example.com'],
      redirects: [],
    });
  });

  it('defaults attached and redirects to empty lists and leaves resolvers to the system', () => {
    const { primary, platformHost, certificateAuthority } = valid;
    const config = parseDomainsConfig(
      { domains: { primary, platformHost, certificateAuthority } },
      'test.json',
    );
    expect(config).toEqual({ primary, platformHost, certificateAuthority, attached: [], redirects: [] });
  });

  it('names the source and the field of each problem', () => {
    const message = errorFor({ primary: 'bad_name.example.com' });
    expect(message).toContain('Invalid domains configuration in test.json');
    expect(message).toContain('must be a host name');
    expect(message).toContain('at domains.primary');
  });

  it.each([
    ['an underscore', 'bad_name.example.com'],
    ['a single label', 'localhost'],
    ['a leading hyphen', '-shop.example.com'],
    ['a trailing hyphen', 'shop-.example.com'],
    ['an empty label', 'shop..example.com'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`],
    ['more than 253 characters', `${'abcdefghi.'.repeat(25)}example.com`],
    ['an IPv4 address', '192.0.2.1'],
    ['a port', 'shop.example.com:8080'],
    ['a URL', 'https://shop.example.com'],
  ])('rejects a host name with %s', (_what, name) => {
    expect(errorFor({ attached: [name] })).toMatch(/must be a host name[\s\S]*at domains\.attached\[0\]/);
  });

  it('rejects a redirect status outside 301, 302, 307 and 308', () => {
    const redirects = [{ from: 'old.example.net', to: 'shop.example.com', status: 303 }];
    expect(errorFor({ redirects })).toMatch(
      /must be one of 301, 302, 307, 308[\s\S]*at domains\.redirects\[0\]\.status/,
    );
  });

  it('rejects a redirect from the primary', () => {
    const redirects = [{ from: 'shop.example.com', to: 'example.com', status: 301 }];
    expect(errorFor({ redirects })).toMatch(/shop\.example\.com is the primary domain and cannot redirect/);
  });

  it('rejects the primary listed again in attached, and a domain attached twice', () => {
    expect(errorFor({ attached: ['shop.example.com'] })).toMatch(
      /it is the primary, which is always attached/,
    );
    expect(errorFor({ attached: ['example.com', 'Example.com.'] })).toMatch(
      /example\.com: it is listed twice[\s\S]*at domains\.attached\[1\]/,
    );
  });

  it('rejects a domain both attached and redirected, and two redirects from one domain', () => {
    const both = [{ from: 'example.com', to: 'shop.example.com', status: 301 }];
    expect(errorFor({ redirects: both })).toMatch(/example\.com is attached and also redirected/);
    const twice = [
      { from: 'old.example.net', to: 'shop.example.com', status: 301 },
      { from: 'old.example.net', to: 'www.example.com', status: 302 },
    ];
    expect(errorFor({ redirects: twice })).toMatch(
      /old\.example\.net has more than one redirect[\s\S]*redirects\[1\]/,
    );
  });

  it('rejects a redirect to a domain that is not attached', () => {
    const redirects = [{ from: 'old.example.net', to: 'elsewhere.example.org', status: 308 }];
    expect(errorFor({ redirects })).toMatch(
      /elsewhere\.example\.org is not attached[\s\S]*redirects\[0\]\.to/,
    );
  });

  it('rejects redirect loops of any length, including a domain redirecting to itself', () => {
    const self = [{ from: 'a.example.net', to: 'a.example.net', status: 301 }];
    expect(errorFor({ redirects: self })).toContain('redirect loop: a.example.net -> a.example.net');
    const pair = [
      { from: 'a.example.net', to: 'b.example.net', status: 301 },
      { from: 'b.example.net', to: 'a.example.net', status: 301 },
    ];
    expect(errorFor({ redirects: pair })).toContain(
      'redirect loop: a.example.net -> b.example.net -> a.example.net',
    );
    const triangle = [
      { from: 'a.example.net', to: 'b.example.net', status: 301 },
      { from: 'b.example.net', to: 'c.example.net', status: 302 },
      { from: 'c.example.net', to: 'a.example.net', status: 307 },
    ];
    expect(errorFor({ redirects: triangle })).toContain(
      'redirect loop: a.example.net -> b.example.net -> c.example.net -> a.example.net',
    );
  });

  it('rejects a redirect chain, naming the domain to redirect to directly', () => {
    const redirects = [
      { from: 'a.example.net', to: 'b.example.net', status: 301 },
      { from: 'b.example.net', to: 'shop.example.com', status: 301 },
    ];
    expect(errorFor({ redirects })).toContain(
      'redirect chain a.example.net -> b.example.net -> shop.example.com; redirect a.example.net to shop.example.com directly',
    );
  });

  it('rejects unknown keys, missing fields and bad resolver addresses', () => {
    expect(errorFor({ redirect: [] })).toMatch(/Unrecognized key: "redirect"/);
    expect(errorFor({ platformHost: undefined })).toMatch(/at domains\.platformHost/);
    expect(errorFor({ resolvers: ['dns.example.com'] })).toMatch(/each resolver must be an IP address/);
    expect(errorFor({ resolvers: [] })).toMatch(/at domains\.resolvers/);
  });
});

describe('loadDomainsConfig', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'domains-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('returns null when DOMAINS_CONFIG is not set', () => {
    expect(loadDomainsConfig({})).toBeNull();
  });

  it('reads the file DOMAINS_CONFIG names', () => {
    const path = join(dir, 'domains.json');
    writeFileSync(path, JSON.stringify({ domains: valid }));
    expect(loadDomainsConfig({ DOMAINS_CONFIG: path })).toEqual(valid);
  });

  it('reports a missing file and a file that is not JSON', () => {
    expect(() => loadDomainsConfig({ DOMAINS_CONFIG: join(dir, 'missing.json') })).toThrow(
      /Cannot read the domains configuration .*missing\.json: ENOENT/,
    );
    writeFileSync(join(dir, 'broken.json'), '{ "domains": ');
    expect(() => loadDomainsConfig({ DOMAINS_CONFIG: join(dir, 'broken.json') })).toThrow(
      /Cannot read the domains configuration .*broken\.json: .*JSON/,
    );
  });
});
