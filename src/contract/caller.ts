/** Who is calling: an API key (with its plan) or an anonymous client, identified by IP. */
export type Caller =
  | { kind: 'key'; keyId: bigint; plan: string; ip: string }
  | { kind: 'anonymous'; ip: string };
