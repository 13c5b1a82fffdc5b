import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainKind, type Verification, verifyDomain } from '../../src/domains/verify.ts';
import { startZoneServer, type ZoneServer } from './zone-server.ts';

const platformHost = 'edge.petstore-platform.test';
const certificateAuthority = 'letsencrypt.org';
const toPlatform = { type: 'CNAME', value: platformHost } as const;

const zones = {
  [platformHost]: [
    { type: 'A', value: '203.0.113.10' },
    { type: 'A', value: '203.0.113.11' },
    { type: 'AAAA', value: '2001:db8::10' },
  ],
  'edge.other-platform.test': [{ type: 'A', value: '198.51.100.1' }],
  'shop.good.test': [{ type: 'CNAME', value: 'EDGE.Petstore-Platform.test' }],
  'shop.wrong-cname.test': [{ type: 'CNAME', value: 'edge.other-platform.test' }],
  'shop.a-beside.test': [toPlatform, { type: 'A', value: '192.0.2.7' }],
  'shop.a-only.test': [{ type: 'A', value: '192.0.2.7' }],
  'caa-blocked.test': [{ type: 'CAA', tag: 'issue', value: 'other-ca.example' }],
  'shop.caa-blocked.test': [toPlatform],
  'caa-allowed.test': [
    { type: 'CAA', tag: 'issue', value: 'other-ca.example' },
    { type: 'CAA', tag: 'issue', value: 'LetsEncrypt.org; validationmethods=http-01' },
    { type: 'CAA', tag: 'iodef', value: 'mailto:security@caa-allowed.test' },
  ],
  'shop.caa-allowed.test': [toPlatform],
  'good-apex.test': [
    { type: 'A', value: '203.0.113.11' },
    { type: 'A', value: '203.0.113.10' },
    { type: 'AAAA', value: '2001:db8::10' },
  ],
  'bad-apex.test': [{ type: 'A', value: '192.0.2.50' }],
} as const;

const cname = 'CNAME';
const noAddress = 'No A/AAAA beside the CNAME';
const alias = 'ALIAS/ANAME addresses';

/** Each zone's domain and whether each rule passes on it. */
const expectations: [string, Record<string, boolean>][] = [
  ['shop.good.test', { [cname]: true, [noAddress]: true, CAA: true }],
  ['shop.wrong-cname.test', { [cname]: false, [noAddress]: true, CAA: true }],
  ['shop.a-beside.test', { [cname]: true, [noAddress]: false, CAA: true }],
  ['shop.a-only.test', { [cname]: false, [noAddress]: false, CAA: true }],
  ['shop.caa-blocked.test', { [cname]: true, [noAddress]: true, CAA: false }],
  ['shop.caa-allowed.test', { [cname]: true, [noAddress]: true, CAA: true }],
  ['good-apex.test', { [alias]: true, CAA: true }],
  ['bad-apex.test', { [alias]: false, CAA: true }],
];

let dns: ZoneServer;
let configPath: string;

beforeAll(async () => {
  dns = await startZoneServer(zones);
  configPath = join(mkdtempSync(join(tmpdir(), 'domains-')), 'domains.json');
  const domains = { primary: 'shop.good.test', platformHost, certificateAuthority, resolvers: [dns.address] };
  writeFileSync(configPath, JSON.stringify({ domains }));
});

afterAll(async () => {
  await dns.close();
  rmSync(dirname(configPath), { recursive: true, force: true });
});

const verify = (domain: string) =>
  verifyDomain(domain, { platformHost, certificateAuthority, resolvers: [dns.address] });

function outcomes({ results }: Verification): Record<string, boolean> {
  return Object.fromEntries(results.map(({ rule, passed }) => [rule, passed]));
}

function detailOf({ results }: Verification, rule: string) {
  const result = results.find((candidate) => candidate.rule === rule);
  return `${result?.detail} | ${result?.fix}`;
}

describe('verifyDomain', () => {
  it.each(expectations)('checks %s', async (domain, expected) => {
    const verification = await verify(domain);
    expect(outcomes(verification)).toEqual(expected);
    expect(verification.passed).toBe(Object.values(expected).every(Boolean));
  });

  it('names the wrong CNAME value and the exact value to set', async () => {
    expect(detailOf(await verify('shop.wrong-cname.test'), cname)).toBe(
      `shop.wrong-cname.test is a CNAME to edge.other-platform.test, not ${platformHost} | ` +
        `Set the CNAME value on shop.wrong-cname.test to exactly ${platformHost}.`,
    );
  });

  it('names the A record that blocks the CNAME', async () => {
    expect(detailOf(await verify('shop.a-beside.test'), noAddress)).toBe(
      'shop.a-beside.test has A/AAAA records of its own (192.0.2.7); they block the CNAME | ' +
        'Delete the A and AAAA records on shop.a-beside.test; only the CNAME may stay.',
    );
  });

  it('finds the CAA records of the closest ancestor and names the record that would allow the CA', async () => {
    expect(detailOf(await verify('shop.caa-blocked.test'), 'CAA')).toBe(
      'the CAA records on caa-blocked.test allow only other-ca.example, not letsencrypt.org | ' +
        'Add a CAA record on caa-blocked.test: 0 issue "letsencrypt.org".',
    );
    expect(detailOf(await verify('shop.caa-allowed.test'), 'CAA')).toMatch(
      /^the CAA records on caa-allowed\.test allow letsencrypt\.org/,
    );
  });

  it('compares apex addresses with the platform host and hints at ALIAS/ANAME support', async () => {
    const detail = detailOf(await verify('bad-apex.test'), alias);
    expect(detail).toContain(
      `bad-apex.test resolves to 192.0.2.50, not to the addresses of ${platformHost} (2001:db8::10, 203.0.113.10, 203.0.113.11)`,
    );
    expect(detail).toContain(`Add an ALIAS or ANAME record on bad-apex.test with the value ${platformHost}`);
    expect(detail).toContain('Not every DNS provider supports ALIAS/ANAME');
  });

  it('takes two-label names for apexes unless told otherwise', async () => {
    expect(domainKind('example.com')).toBe('apex');
    expect(domainKind('shop.example.com')).toBe('subdomain');
    const forced = await verifyDomain('shop.good.test', {
      platformHost,
      certificateAuthority,
      resolvers: [dns.address],
      kind: 'apex',
    });
    expect(outcomes(forced)).toEqual({ [alias]: true, CAA: true });
  });

  it('fails every rule, without throwing, when the resolver does not answer', async () => {
    const silent = await startZoneServer({});
    const address = silent.address;
    await silent.close();
    const verification = await verifyDomain('shop.good.test', {
      platformHost,
      certificateAuthority,
      resolvers: [address],
    });
    expect(verification.passed).toBe(false);
    for (const result of verification.results) expect(result.detail).toMatch(/^DNS lookup failed: /);
  });

  it('refuses a name that is not a domain', async () => {
    await expect(verify('not a domain')).rejects.toThrow('not a domain is not a domain name');
  });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv = { DOMAINS_CONFIG: configPath }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/domains/cli.ts', ...args],
      { env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('npm run domains -- verify', () => {
  it.each(expectations)(
    'prints PASS or FAIL per rule for %s and exits accordingly',
    async (domain, expected) => {
      const { code, stdout } = await runCli(['verify', domain]);
      for (const [rule, passed] of Object.entries(expected)) {
        expect(stdout).toContain(`${passed ? 'PASS' : 'FAIL'}  ${rule}: `);
      }
      const allPassed = Object.values(expected).every(Boolean);
      expect(stdout).toContain(allPassed ? 'All checks passed.' : 'checks failed.');
      expect(code).toBe(allPassed ? 0 : 1);
    },
  );

  it('prints the fix under a failed rule and the ALIAS/ANAME hint for an apex', async () => {
    const { stdout } = await runCli(['verify', 'bad-apex.test']);
    expect(stdout).toMatch(/^bad-apex\.test is checked as an apex domain: it needs an ALIAS or ANAME record/);
    expect(stdout).toMatch(
      /FAIL {2}ALIAS\/ANAME addresses: .*\n {6}Fix: Add an ALIAS or ANAME record on bad-apex\.test/,
    );
  });

  it('exits 2 with usage, or with the configuration problem, when it cannot verify', async () => {
    const usage = await runCli(['verify']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('npm run --silent domains -- verify <domain> [--apex | --subdomain]');
    const unconfigured = await runCli(['verify', 'shop.good.test'], {});
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.stderr).toContain('DOMAINS_CONFIG is not set');
  });
});
