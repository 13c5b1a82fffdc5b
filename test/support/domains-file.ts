import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A DOMAINS_CONFIG file with a primary domain and nothing attached, in a folder of its own; `remove` deletes it. */
export function writeDomainsFile(primary = 'shop.example.com') {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-domains-'));
  const file = join(dir, 'domains.json');
  writeFileSync(
    file,
    JSON.stringify({
      domains: {
        primary,
        attached: [],
        redirects: [],
        platformHost: 'edge.petstore-platform.test',
        certificateAuthority: 'letsencrypt.org',
      },
    }),
  );
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
