import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Redirect {
  from: string;
  to: string;
  status: number;
}

/**
 * A DOMAINS_CONFIG file with a primary domain and what is attached to it (nothing unless given), in a folder of
 * its own; `remove` deletes it.
 */
export function writeDomainsFile({
  primary = 'shop.example.com',
  attached = [],
  redirects = [],
}: {
  primary?: string;
  attached?: string[];
  redirects?: Redirect[];
} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-domains-'));
  const file = join(dir, 'domains.json');
  writeFileSync(
    file,
    JSON.stringify({
      domains: {
        primary,
        attached,
        redirects,
        platformHost: 'edge.petstore-platform.test',
        certificateAuthority: 'letsencrypt.org',
      },
    }),
  );
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
