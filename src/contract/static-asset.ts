import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  COMPRESSION_THRESHOLD_BYTES,
  type Coding,
  compress,
  negotiateCoding,
  varyOnEncoding,
} from './content-coding.ts';
import { notModified } from './http-caching.ts';

/** A name that carries its content's hash never changes content: any cache may keep it for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A name whose content may change with the next release: kept, but revalidated (a 304 when unchanged). */
export const REVALIDATE = 'public, no-cache';

export interface StaticAsset {
  /** The content's hash, short: what a content-hashed name carries. */
  readonly hash: string;
  readonly body: Buffer;
  answer(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * A file or page the gateway serves as it is: with an entity tag of its content (equal in every process of a
 * build), a 304 for a client that holds it, and its br and gzip forms compressed once, on first demand, and kept.
 */
export function createStaticAsset(
  content: string | Buffer,
  headers: { 'content-type': string; 'cache-control': string } & Record<string, string>,
): StaticAsset {
  const body = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  const tag = `W/"${hash}"`;
  const compressible =
    body.byteLength >= COMPRESSION_THRESHOLD_BYTES && !/^image\//.test(headers['content-type']);
  // Compressed on first demand, off the main thread, and kept.
  const coded = new Map<Coding, Promise<Buffer>>();
  const codedAs = (coding: Coding) => {
    let pending = coded.get(coding);
    if (!pending) {
      pending = compress(body, coding, 'asset');
      coded.set(coding, pending);
    }
    return pending;
  };

  return {
    hash,
    body,
    async answer(req, res) {
      const vary = compressible && varyOnEncoding((res.getHeader('vary') as string | undefined) ?? null);
      const common = { ...headers, etag: tag, ...(vary && { vary }) };
      if (notModified(header(req, 'if-none-match'), tag)) {
        res.writeHead(304, common);
        res.end();
        return;
      }
      const coding = compressible ? negotiateCoding(header(req, 'accept-encoding')) : undefined;
      const sent = coding ? await codedAs(coding) : body;
      res.writeHead(200, {
        ...common,
        ...(coding && { 'content-encoding': coding }),
        'content-length': String(sent.byteLength),
      });
      res.end(req.method === 'HEAD' ? undefined : sent);
    },
  };
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
};
