import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The content codings the gateway compresses with, in the order it prefers them. */
export type Coding = 'br' | 'gzip';

const CODINGS: readonly Coding[] = ['br', 'gzip'];

/**
 * The coding to answer with, by Accept-Encoding (RFC 9110 12.5.3): the preferred one the client accepts with a
 * q above 0 (`*` accepts any not named); undefined: identity.
 */
export function negotiateCoding(acceptEncoding: string | null | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    weights.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Answers smaller than this go uncompressed: below it a compressed answer saves less than a TCP packet and
 * costs more CPU than it saves (measured in docs/performance.md, "Compression").
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Adds Accept-Encoding to a Vary value (which may be empty) unless it names it already. */
export function varyOnEncoding(vary: string | null): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** How hard to try: `answer` for each API answer (cheap), `asset` for a page compressed once and kept. */
export type Effort = 'answer' | 'asset';

// Brotli 4 and gzip 6 cost little per answer for most of the gain; an asset is compressed once (docs/performance.md).
const BROTLI_QUALITY: Record<Effort, number> = { answer: 4, asset: 5 };
const GZIP_LEVEL: Record<Effort, number> = { answer: 6, asset: 9 };

/** Compresses off the main thread (zlib's pool). */
export function compress(body: Uint8Array, coding: Coding, effort: Effort): Promise<Buffer> {
  if (coding === 'br') {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return gzipAsync(body, { level: GZIP_LEVEL[effort] });
}
