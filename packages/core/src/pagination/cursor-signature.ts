import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64url } from './base64url.js';

/** Bytes of the HMAC kept in a token: 128 bits, enough against forgery and short in a URL. */
const SIGNATURE_BYTES = 16;
const utf8 = new TextEncoder();

/**
 * The signature of a cursor payload: the first 16 bytes of HMAC-SHA256 (key and payload as
 * UTF-8), base64url. Synchronous and pure JavaScript (`@noble/hashes`, audited), because links
 * are built synchronously and core runs where there is no `node:crypto`.
 *
 * @example
 * signPayload('eyJrIjoiNzkwbmZrIn0', 's3cret') // 22 base64url characters
 */
export function signPayload(payload: string, secret: string): string {
  return encodeBase64url(
    hmac(sha256, utf8.encode(secret), utf8.encode(payload)).subarray(0, SIGNATURE_BYTES),
  );
}

/**
 * Whether `signature` is the payload's signature, in time independent of where they differ
 * (the lengths are public: every valid signature has the same one).
 */
export function verifySignature(payload: string, signature: string, secret: string): boolean {
  const expected = signPayload(payload, secret);
  if (signature.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i += 1) difference |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return difference === 0;
}
