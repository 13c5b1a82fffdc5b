/** A fetch for paths of one gateway: `app.fetch` in-process, or `overHttp(url)` for one on a port. */
export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Requests to the gateway served at `url` (a process, or a test app with `http: true`). */
export const overHttp =
  (url: string): Fetch =>
  (path, init) =>
    fetch(`${url}${path}`, init);
