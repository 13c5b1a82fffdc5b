import { apiError } from './errors.ts';

export const payloadTooLarge = (maxBytes: number) => apiError('bodyTooLarge', { maxBytes });

/** Whether Content-Length announces more than `maxBytes`: such a body is refused before it is read. */
export function declaresMoreThan(request: Request, maxBytes: number): boolean {
  return Number(request.headers.get('content-length')) > maxBytes;
}

/**
 * The request's body, refused with PAYLOAD_TOO_LARGE beyond `maxBytes`: from Content-Length before reading,
 * and by counting the bytes received, for a body sent without one (chunked).
 */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (declaresMoreThan(request, maxBytes)) throw payloadTooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}
