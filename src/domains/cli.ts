import { parseArgs } from 'node:util';
import { DomainsConfigError, loadDomainsConfig } from './config.ts';
import { type Verification, verifyDomain } from './verify.ts';

const USAGE = `Usage: npm run --silent domains -- verify <domain> [--apex | --subdomain]
       npm run --silent domains -- --help
Checks <domain>'s DNS against DOMAINS_CONFIG's platform host (README, "Custom domains"). Exit status: 0 every
check passed, 1 a check failed, 2 wrong command line or configuration (this usage is then printed on stderr).`;

function report({ domain, kind, passed, results }: Verification): string {
  const heading =
    kind === 'apex'
      ? `${domain} is checked as an apex domain: it needs an ALIAS or ANAME record, which not every DNS provider supports.`
      : `${domain} is checked as a subdomain: it needs a CNAME record.`;
  const lines = results.flatMap(({ rule, passed, detail, fix }) => [
    `${passed ? 'PASS' : 'FAIL'}  ${rule}: ${detail}`,
    ...(fix ? [`      Fix: ${fix}`] : []),
  ]);
  const failures = results.filter((result) => !result.passed).length;
  const summary = passed ? 'All checks passed.' : `${failures} of ${results.length} checks failed.`;
  return [heading, '', ...lines, '', summary].join('\n');
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      apex: { type: 'boolean' },
      subdomain: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals[0] === 'help') {
    console.log(USAGE);
    return 0;
  }
  const [command, domain, ...extra] = positionals;
  if (command !== 'verify' || !domain || extra.length > 0 || (values.apex && values.subdomain)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadDomainsConfig(process.env);
  if (!config) {
    console.error('DOMAINS_CONFIG is not set: point it at the domains configuration file (docs/domains.md).');
    return 2;
  }
  const kind = values.apex ? 'apex' : values.subdomain ? 'subdomain' : undefined;
  const verification = await verifyDomain(domain, { ...config, kind });
  console.log(report(verification));
  return verification.passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(error instanceof DomainsConfigError ? error.message : `${error.message}\n${USAGE}`);
    process.exitCode = 2;
  },
);
