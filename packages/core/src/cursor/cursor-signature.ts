import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ConfigurationError } from '../errors.js';
import { encodeBase64url } from './base64url.js';

/**
 * The key cursors are signed with, or several while keys rotate: the first signs, every one
 * verifies, so a deployment adds a new key in front, and drops the old one once the cursors it
 * signed have aged out, without cutting a client mid-walk. An empty string signs nothing.
 *
 * @example
 * new CursorPagination({ pageSize: 50, cursorSecret: [process.env.CURSOR_KEY!, process.env.CURSOR_KEY_OLD!] })
 */
export type CursorSecret = string | readonly string[];

/** Bytes of the HMAC kept in a token: 128 bits, enough against forgery and short in a URL. */
const SIGNATURE_BYTES = 16;
const utf8 = new TextEncoder();

/**
 * The signature of a cursor payload: the first 16 bytes of HMAC-SHA256 (key and payload as
 * UTF-8), base64url. Synchronous (links are built synchronously; Web Crypto's HMAC is not) and
 * runtime-neutral: `@noble/hashes`, audited and without dependencies of its own.
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
 * The key that signs with `secret`: the string, or a list's first key; `null` when nothing signs
 * (no secret). A secret must be a non-empty string or a list of one or more non-empty strings:
 * anything else is a `ConfigurationError`, never a silently unsigned cursor. Every entry point
 * that takes a secret calls this before it runs anything, so a bad one fails where it is given.
 */
export function signingKey(secret: CursorSecret | null | undefined): string | null {
  if (secret === null || secret === undefined) return null;
  if (typeof secret === 'string' && secret !== '') return secret;
  if (
    typeof secret === 'string' ||
    !Array.isArray(secret) ||
    secret.length === 0 ||
    !secret.every((key) => typeof key === 'string' && key !== '')
  ) {
    throw new ConfigurationError(
      'cursorSecret must be a string or a non-empty list of non-empty strings (the first signs, every one verifies)',
    );
  }
  return secret[0]!;
}

/**
 * Whether `signature` is the payload's signature under `secret` (under any key of a list), in time
 * independent of where it differs and of which key matched (the lengths are public: every valid
 * signature has the same one, and every key of the list is tried).
 */
export function verifySignature(payload: string, signature: string, secret: CursorSecret): boolean {
  if (typeof secret === 'string') return sameSignature(signPayload(payload, secret), signature);
  let matched = false;
  for (const key of secret) matched = sameSignature(signPayload(payload, key), signature) || matched;
  return matched;
}

function sameSignature(expected: string, signature: string): boolean {
  if (signature.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i += 1) difference |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return difference === 0;
}
