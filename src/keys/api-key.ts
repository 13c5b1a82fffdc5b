import { createHash, randomBytes } from 'node:crypto';

const KEY_PATTERN = /^psk_[A-Za-z0-9_-]{43}$/;

/** A new key: `psk_` and 32 random bytes in base64url (256 bits). */
export function generateApiKey(): string {
  return `psk_${randomBytes(32).toString('base64url')}`;
}

/** Whether a header value can be a key at all; anything else is refused without a database query. */
export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/**
 * The stored form of a key. A fast hash is right here, unlike for passwords: the key is 256 random
 * bits, so there is nothing to guess from the hash, and every API request hashes its key.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, stored in clear so that `apikey -- list` can tell keys apart. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 'psk_'.length + 6);
}
