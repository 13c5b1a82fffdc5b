import type { Plugin } from 'graphql-yoga';
import {
  COMPRESSION_THRESHOLD_BYTES,
  compress,
  negotiateCoding,
  varyOnEncoding,
} from '../../contract/content-coding.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * Compresses JSON answers (GraphQL's and REST's) by Accept-Encoding, br before gzip, when they are at least the
 * threshold long. Only whole JSON bodies: an event stream or a multipart answer is never held back by it.
 */
export function useCompression(thresholdBytes = COMPRESSION_THRESHOLD_BYTES): Plugin {
  return {
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (!JSON_TYPE.test(response.headers.get('content-type') ?? '')) return;
      if (response.headers.has('content-encoding') || !response.body) return;
      response.headers.set('vary', varyOnEncoding(response.headers.get('vary')));
      const coding = negotiateCoding(request.headers.get('accept-encoding'));
      if (!coding) return;
      return response.arrayBuffer().then(async (buffer) => {
        const body = new Uint8Array(buffer);
        const headers = new fetchAPI.Headers(response.headers);
        let sent: Uint8Array = body;
        if (body.byteLength >= thresholdBytes) {
          sent = await compress(body, coding, 'answer');
          headers.set('content-encoding', coding);
        }
        headers.set('content-length', String(sent.byteLength));
        setResponse(
          new fetchAPI.Response(sent as Uint8Array<ArrayBuffer>, { status: response.status, headers }),
        );
      });
    },
  };
}
