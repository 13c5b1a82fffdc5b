// CPU per compressed answer, by size and coding, in this process (docs/performance.md, "Compression"):
// `npx tsx bench/compression-cost.ts`. Bodies are the gateway's own: pages of pets as REST JSON, and GraphiQL's page.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { EXPLORER_OPTIONS } from '../src/graphql/yoga.ts';

const pet = (id: number) => ({
  id: String(id),
  name: `Pet ${id}`,
  categoryId: String(1 + (id % 5)),
  status: ['available', 'pending', 'sold'][id % 3],
  category: { id: String(1 + (id % 5)), name: `Category ${1 + (id % 5)}` },
  inventory: { quantity: id % 17, status: 'available' },
});
const page = (n: number) =>
  Buffer.from(JSON.stringify({ data: { pets: Array.from({ length: n }, (_, i) => pet(i + 1)) } }));

const coders: Record<string, (body: Buffer) => Buffer> = {
  'gzip 6': (body) => gzipSync(body, { level: 6 }),
  'br 4': (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

function cpuMicros(work: () => void, rounds: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / rounds;
}

console.log('| body | bytes | coding | compressed bytes | CPU µs per answer |');
console.log('|---|---|---|---|---|');
for (const n of [1, 5, 10, 20, 100]) {
  const body = page(n);
  for (const [name, code] of Object.entries(coders)) {
    const rounds = Math.max(50, Math.round(2_000_000 / body.byteLength));
    const out = code(body);
    console.log(
      `| ${n} pets | ${body.byteLength} | ${name} | ${out.byteLength} | ${cpuMicros(() => code(body), rounds).toFixed(0)} |`,
    );
  }
}

const { renderExplorerPage } = await import('../src/graphql/graphiql-page.ts');
const explorer = Buffer.from(renderExplorerPage(EXPLORER_OPTIONS));
const assetCoders: Record<string, (body: Buffer) => Buffer> = {
  'gzip 9': (body) => gzipSync(body, { level: 9 }),
  'br 5': (body) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  'br 7': (body) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 7,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  'br 9': (body) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
};
for (const [name, code] of Object.entries(assetCoders)) {
  let out: Buffer = Buffer.alloc(0);
  const micros = cpuMicros(() => {
    out = code(explorer);
  }, 1);
  console.log(
    `| GraphiQL page | ${explorer.byteLength} | ${name} | ${out.byteLength} | ${(micros / 1000).toFixed(0)} ms, once |`,
  );
}
