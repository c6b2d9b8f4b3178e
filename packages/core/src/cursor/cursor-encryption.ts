import { ConfigurationError } from '../errors.js';
import { decodeCanonicalBase64url, encodeBase64url } from './base64url.js';

/**
 * The key cursors are encrypted with, or several while keys rotate: the first encrypts, every one
 * decrypts. Each is any string of at least 32 characters (a passphrase, or 32 random bytes in
 * base64url); the AES-256 key is derived from it once, with HKDF-SHA256.
 *
 * @example
 * new CursorPagination({ pageSize: 50, cursorEncryptionKey: [process.env.CURSOR_KEY!, process.env.CURSOR_KEY_OLD!] })
 */
export type CursorEncryptionKey = string | readonly string[];

/** The shortest encryption key accepted, in characters. */
export const MIN_CURSOR_ENCRYPTION_KEY_LENGTH = 32;

/** AES-GCM's recommended nonce (96 bits) and its full tag (128 bits). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** HKDF's salt and info: they bind the derived key to this one use, so a key shared elsewhere derives another. */
const HKDF_SALT = utf8.encode('pagewise cursor encryption');
const HKDF_INFO = utf8.encode('AES-256-GCM v1');

/**
 * The keys of `key`, first the one that encrypts; `null` when nothing encrypts (absent). A key
 * shorter than 32 characters, an empty list or anything but strings is a `ConfigurationError`.
 */
export function encryptionKeys(key: CursorEncryptionKey | null | undefined): readonly string[] | null {
  if (key === null || key === undefined) return null;
  const keys: readonly unknown[] = typeof key === 'string' ? [key] : Array.isArray(key) ? key : [];
  if (
    keys.length === 0 ||
    !keys.every((k) => typeof k === 'string' && k.length >= MIN_CURSOR_ENCRYPTION_KEY_LENGTH)
  ) {
    throw new ConfigurationError(
      `cursorEncryptionKey must be a string of at least ${MIN_CURSOR_ENCRYPTION_KEY_LENGTH} characters, or a ` +
        'non-empty list of them (the first encrypts, every one decrypts): a passphrase, or 32 random bytes in base64url',
    );
  }
  return keys as readonly string[];
}

/**
 * The AES-256-GCM keys derived so far, by their text. A memo of a pure function (HKDF of a key
 * is the same key in every process, so tokens outlive deploys): with it each key is derived once,
 * never per token; a page function, which gets its options anew on each call, has nowhere else
 * to keep them. Bounded: a process rotating through more keys than this derives again.
 */
const derived = new Map<string, Promise<CryptoKey>>();
const MAX_DERIVED_KEYS = 64;

function derivedKey(key: string): Promise<CryptoKey> {
  let found = derived.get(key);
  if (found === undefined) {
    found = deriveKey(key);
    if (derived.size >= MAX_DERIVED_KEYS) derived.delete(derived.keys().next().value!);
    derived.set(key, found);
  }
  return found;
}

async function deriveKey(key: string): Promise<CryptoKey> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', utf8.encode(key), 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: HKDF_INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * `text` encrypted under the first key: base64url of a random 96-bit IV, the ciphertext and the
 * 128-bit tag. Web Crypto, so asynchronous; nothing of the text is readable in the token.
 *
 * @example
 * await encryptCursorText('{"k":"790nfk","p":[7]}', keys) // 'q1f…' (no dot, unreadable)
 */
export async function encryptCursorText(text: string, keys: readonly string[]): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await globalThis.crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      await derivedKey(keys[0]!),
      utf8.encode(text),
    ),
  );
  const token = new Uint8Array(IV_BYTES + sealed.length);
  token.set(iv);
  token.set(sealed, IV_BYTES);
  return encodeBase64url(token);
}

/**
 * The text `token` holds when some key of `keys` encrypted it (GCM's tag authenticates it), else
 * `null`: a plain or signed token, an altered one, or one under a key no longer listed.
 */
export async function decryptCursorText(token: string, keys: readonly string[]): Promise<string | null> {
  const bytes = decodeCanonicalBase64url(token);
  if (bytes === null || bytes.length < IV_BYTES + TAG_BYTES) return null;
  // Copies on their own buffers, as Web Crypto's types ask.
  const iv = bytes.slice(0, IV_BYTES);
  const sealed = bytes.slice(IV_BYTES);
  for (const key of keys) {
    try {
      const text = await globalThis.crypto.subtle.decrypt(
        { name: 'AES-GCM', iv },
        await derivedKey(key),
        sealed,
      );
      return strictUtf8.decode(text);
    } catch {
      // Another key's token, or a forged one: try the next key.
    }
  }
  return null;
}
