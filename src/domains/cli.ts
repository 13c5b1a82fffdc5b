// `npm run --silent domains -- verify <domain> [--apex | --subdomain]`: checks a custom domain's DNS against
// DOMAINS_CONFIG's platform host.
import { parseCommandLine, runTool, splitCommand, UsageError, usageText } from '../cli/command-line.ts';
import { DomainsConfigError, loadDomainsConfig } from './config.ts';
import { type Verification, verifyDomain } from './verify.ts';

const USAGE = usageText(
  'domains',
  [
    {
      args: 'verify <domain> [--apex | --subdomain]',
      about: [`Checks <domain>'s DNS against DOMAINS_CONFIG's platform host (README, "Custom domains").`],
    },
  ],
  [],
  'Exit status: 0 every check passed, 1 a check failed, 2 wrong command line (this usage is then printed on ' +
    'stderr) or configuration.',
);

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

await runTool({
  name: 'domains',
  usage: USAGE,
  async main(argv) {
    const [, rest] = splitCommand(argv, ['verify']);
    const { positionals, values } = parseCommandLine(rest, {
      apex: { type: 'boolean' },
      subdomain: { type: 'boolean' },
    });
    const [domain, ...extra] = positionals;
    if (domain === undefined || extra.length > 0) throw new UsageError('verify takes one domain');
    if (values.apex && values.subdomain) throw new UsageError('--apex and --subdomain exclude each other');
    let config: ReturnType<typeof loadDomainsConfig>;
    try {
      config = loadDomainsConfig(process.env);
    } catch (error) {
      if (!(error instanceof DomainsConfigError)) throw error;
      console.error(`domains: ${error.message}`);
      return 2;
    }
    if (!config) {
      console.error(
        'domains: DOMAINS_CONFIG is not set: point it at the domains configuration file (docs/domains.md).',
      );
      return 2;
    }
    const kind = values.apex ? 'apex' : values.subdomain ? 'subdomain' : undefined;
    const verification = await verifyDomain(domain, { ...config, kind });
    console.log(report(verification));
    return verification.passed ? 0 : 1;
  },
});
