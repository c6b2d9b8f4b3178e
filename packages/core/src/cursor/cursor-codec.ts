import type { PositionValue } from '../contract/ordered-query.js';
import type { KeyTerm } from '../contract/ordering.js';
import { ConfigurationError } from '../errors.js';
import { decodeCanonicalBase64url, encodeBase64urlText, encodeBase64urlTexts } from './base64url.js';
import {
  type CursorEncryptionKey,
  decryptCursorText,
  encryptCursorText,
  encryptionKeys,
} from './cursor-encryption.js';
import { type CursorSecret, signingKey, signPayload, verifySignature } from './cursor-signature.js';

/** A decoded cursor: DRF's `(offset, reverse, position)` with a typed, multi-field position. */
export interface Cursor {
  readonly offset: number;
  readonly reverse: boolean;
  /** One value per ordering term, or `null` for "from the start" (or the end, when reversed). */
  readonly position: readonly PositionValue[] | null;
}

/** Thrown when a cursor token cannot be decoded; paginators answer it with `404 Invalid cursor`. */
export class CursorDecodeError extends Error {
  constructor(reason: string) {
    super(`Invalid cursor: ${reason}`);
    this.name = 'CursorDecodeError';
  }
}

/** What encoding and decoding need to know beyond the cursor itself. */
export interface CursorCodecOptions {
  /** Terms the positions are aligned with; a cursor minted for other terms is rejected. */
  readonly order: readonly KeyTerm[];
  /**
   * `orderingFingerprint(order)`, when the caller keeps it (a paginator does, per ordering).
   * @default computed from `order`
   */
  readonly fingerprint?: string | undefined;
  /**
   * HMAC-SHA256 key (or keys: the first signs, every one verifies); when set, tokens are signed
   * and unsigned or altered ones are rejected.
   */
  readonly secret?: CursorSecret | null | undefined;
  /**
   * AES-256-GCM key (or keys: the first encrypts, every one decrypts), 32 characters or more; when
   * set, tokens are encrypted (the secret is then not used: GCM authenticates them) and plain or
   * signed ones are rejected. Only the asynchronous `encodeCursorAsync` / `decodeCursorAsync`
   * take it (Web Crypto is asynchronous).
   */
  readonly encryptionKey?: CursorEncryptionKey | null | undefined;
  /**
   * Milliseconds a token stays valid after it is minted; older ones are rejected. Needs a secret
   * or an encryption key (a plain token's age could be rewritten): else `ConfigurationError`.
   * @default null (tokens never expire)
   */
  readonly ttl?: number | null | undefined;
  /** The time tokens are minted and checked at, in epoch milliseconds. @default Date.now() */
  readonly now?: number | undefined;
  /** Decoded offsets above it are clamped to it (DRF's `offset_cutoff`); falsy: no clamp. */
  readonly offsetCutoff?: number | null | undefined;
  /**
   * Tokens longer than this are rejected before any decoding, and never minted: encoding a longer
   * one throws `ConfigurationError`. @default DEFAULT_MAX_CURSOR_LENGTH (4096)
   */
  readonly maxLength?: number | undefined;
}

/**
 * The default longest cursor, in characters. It holds any position a B-tree index can hold
 * (Postgres refuses index entries over 2,704 bytes; MariaDB's InnoDB keys stop at 3,072), base64
 * and the signature included, and stays well under the 8 KiB request line proxies such as nginx
 * accept by default.
 *
 * @example
 * new CursorPagination({ maxCursorLength: 2 * DEFAULT_MAX_CURSOR_LENGTH })
 */
export const DEFAULT_MAX_CURSOR_LENGTH = 4096;

const MAX_DATE_MS = 8.64e15;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A short, stable hash of an ordering (FNV-1a over UTF-16 code units, 32 bits): it only has to tell orderings apart,
 * tampering is the signature's job.
 */
export function orderingFingerprint(order: readonly KeyTerm[]): string {
  // The hash of the terms' `field\0direction\0nulls` (`\0u` after a unique one) joined by \1,
  // fed piece by piece instead of building that text; int32 steps, the same low 32 bits.
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < order.length; i += 1) {
    const term = order[i]!;
    if (i > 0) hash = Math.imul(hash ^ 1, FNV_PRIME);
    hash = Math.imul(fnv1a(hash, `${term.field}`), FNV_PRIME);
    hash = Math.imul(fnv1a(hash, `${term.direction}`), FNV_PRIME);
    hash = fnv1a(hash, `${term.nulls}`);
    if (term.unique) hash = Math.imul(Math.imul(hash, FNV_PRIME) ^ 0x75, FNV_PRIME);
  }
  return (hash >>> 0).toString(36);
}

const FNV_PRIME = 0x01000193;

function fnv1a(hash: number, text: string): number {
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

type EncodedValue = null | boolean | number | string;

/** Tagged JSON for one value: strings `s…`, bigints `b…`, dates `d<epoch ms>`, odd numbers `n…`. */
function encodeValue(value: PositionValue): EncodedValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return 'n-0';
    return Number.isFinite(value) ? value : `n${value}`;
  }
  if (typeof value === 'bigint') return `b${value}`;
  if (typeof value === 'string') return `s${value}`;
  const ms = value.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Cannot put an invalid Date into a cursor');
  return `d${ms}`;
}

function decodeValue(value: unknown): PositionValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CursorDecodeError('bad number');
    return value;
  }
  if (typeof value !== 'string' || value === '') throw new CursorDecodeError('bad value');
  const body = value.slice(1);
  switch (value[0]) {
    case 's':
      return body;
    case 'b':
      if (!/^-?(0|[1-9]\d*)$/.test(body)) throw new CursorDecodeError('bad bigint');
      return BigInt(body);
    case 'd': {
      if (!/^-?(0|[1-9]\d{0,15})$/.test(body) || Math.abs(Number(body)) > MAX_DATE_MS) {
        throw new CursorDecodeError('bad date');
      }
      return new Date(Number(body));
    }
    case 'n':
      if (body === '-0') return -0;
      if (body === 'NaN') return Number.NaN;
      if (body === 'Infinity') return Number.POSITIVE_INFINITY;
      if (body === '-Infinity') return Number.NEGATIVE_INFINITY;
      throw new CursorDecodeError('bad number');
    default:
      throw new CursorDecodeError('unknown value tag');
  }
}

/**
 * A canonical text of a position, so positions compare equal exactly when their values are the
 * same value of the same type (`1n` is not `1`, dates compare by instant).
 */
export function positionKey(position: readonly PositionValue[] | null): string {
  return position === null ? '' : JSON.stringify(position.map(encodeValue));
}

/**
 * Whether two positions are the same, exactly when their `positionKey`s are equal (and so it
 * throws where `positionKey` throws: an invalid `Date`, a value no cursor holds), without
 * building either text.
 *
 * @example
 * samePosition([new Date(0), 1n], [new Date(0), 1n]) // true; [new Date(0), 1] is not the same
 */
export function samePosition(
  a: readonly PositionValue[] | null,
  b: readonly PositionValue[] | null,
): boolean {
  if (a === null || b === null) return a === b;
  for (const value of a) checkEncodable(value);
  for (const value of b) checkEncodable(value);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    if (!sameValue(a[i]!, b[i]!)) return false;
  }
  return true;
}

/** Throws what `encodeValue` throws for `value`, without building its text. */
function checkEncodable(value: PositionValue): void {
  switch (typeof value) {
    case 'boolean':
    case 'number':
    case 'bigint':
    case 'string':
      return;
    default:
      if (value === null) return;
      if (Number.isNaN(value.getTime())) throw new RangeError('Cannot put an invalid Date into a cursor');
  }
}

/** `encodeValue(x) === encodeValue(y)` for encodable values: numbers as `Object.is`, dates by instant. */
function sameValue(x: PositionValue, y: PositionValue): boolean {
  if (typeof x === 'number') return typeof y === 'number' && Object.is(x, y);
  if (x === null || typeof x !== 'object') return x === y;
  return y !== null && typeof y === 'object' && x.getTime() === y.getTime();
}

/**
 * Encodes a cursor as an opaque base64url token (`<payload>` or `<payload>.<signature>`). Throws
 * `ConfigurationError` when the token would be longer than `maxLength`, which `decodeCursor`
 * would refuse.
 *
 * @example
 * encodeCursor({ offset: 0, reverse: false, position: [new Date(0), 7n] }, { order })
 */
export function encodeCursor(cursor: Cursor, options: CursorCodecOptions): string {
  const fingerprint = options.fingerprint ?? orderingFingerprint(options.order);
  return tokenOf(cursor, encodeBase64urlText(cursorJson(cursor, fingerprint, issuedAt(options))), options);
}

/**
 * `encodeCursor`, encrypted when `options.encryptionKey` is set (AES-256-GCM through Web Crypto,
 * hence a promise); otherwise the same token `encodeCursor` mints.
 *
 * @example
 * await encodeCursorAsync(cursor, { order, encryptionKey: process.env.CURSOR_KEY, ttl: 3_600_000 })
 */
export async function encodeCursorAsync(cursor: Cursor, options: CursorCodecOptions): Promise<string> {
  const keys = encryptionKeys(options.encryptionKey);
  if (keys === null) return encodeCursor(cursor, options);
  const fingerprint = options.fingerprint ?? orderingFingerprint(options.order);
  const token = await encryptCursorText(cursorJson(cursor, fingerprint, issuedAt(options)), keys);
  return checkedLength(token, cursor, options);
}

/**
 * When tokens minted now say they were (`t`, epoch ms): only with a `ttl`, which needs a secret or
 * an encryption key; `null` without one. A bad `ttl` is a `ConfigurationError`.
 */
function issuedAt(options: CursorCodecOptions): number | null {
  if (options.ttl === null || options.ttl === undefined) return null;
  checkTtl(options);
  return options.now ?? Date.now();
}

/** Throws `ConfigurationError` unless `ttl` is a positive integer with a secret or an encryption key to protect it. */
export function checkTtl(options: Pick<CursorCodecOptions, 'ttl' | 'secret' | 'encryptionKey'>): void {
  const { ttl } = options;
  if (ttl === null || ttl === undefined) return;
  if (!Number.isSafeInteger(ttl) || ttl < 1) {
    throw new ConfigurationError(`cursorTtl must be a positive integer of milliseconds, got ${ttl}`);
  }
  if (encryptionKeys(options.encryptionKey) === null && signingKey(options.secret) === null) {
    throw new ConfigurationError(
      'cursorTtl needs cursorSecret or cursorEncryptionKey: the age of a plain cursor could be rewritten by anyone',
    );
  }
}

/** The JSON of a cursor under the fingerprint of its ordering: `{ k, o?, r?, p? }` in that key order. */
function cursorJson(cursor: Cursor, fingerprint: string, issued: number | null): string {
  // The same text `JSON.stringify` gives, without the body object and the array of encoded values.
  let json = `{"k":"${fingerprint}"`;
  if (cursor.offset !== 0) {
    const offset = JSON.stringify(cursor.offset) as string | undefined;
    if (offset !== undefined) json += `,"o":${offset}`;
  }
  if (cursor.reverse) json += ',"r":1';
  const { position } = cursor;
  if (position !== null) {
    json += ',"p":[';
    for (let i = 0; i < position.length; i += 1) json += (i > 0 ? ',' : '') + valueJson(position[i]!);
    json += ']';
  }
  if (issued !== null) json += `,"t":${issued}`;
  return `${json}}`;
}

/** The token of a cursor's encoded payload: signed when a secret is set, checked for length. */
function tokenOf(cursor: Cursor, payload: string, options: CursorCodecOptions): string {
  if (options.encryptionKey !== null && options.encryptionKey !== undefined) throw synchronousEncryption();
  // No secret (the common case) asks the signature nothing.
  const key = options.secret == null ? null : signingKey(options.secret);
  const token = key !== null ? `${payload}.${signPayload(payload, key)}` : payload;
  return checkedLength(token, cursor, options);
}

function synchronousEncryption(): ConfigurationError {
  return new ConfigurationError(
    'Encrypted cursors are made with Web Crypto, which is asynchronous: use encodeCursorAsync / decodeCursorAsync',
  );
}

/** `token`, unless it is longer than `maxLength` allows: then `ConfigurationError`. */
function checkedLength(token: string, cursor: Cursor, options: CursorCodecOptions): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_CURSOR_LENGTH;
  // A link the same server would refuse ends the walk silently; fail where the fix is known.
  if (token.length > maxLength) throw tooLong(token.length, maxLength, cursor, options.order);
  return token;
}

/**
 * The tokens of a page's two cursors, `null` where there is no cursor: `encodeCursor` of each, in
 * one call.
 *
 * @example
 * const [next, previous] = encodeCursors(nextCursor, previousCursor, { order });
 */
export function encodeCursors(
  next: Cursor | null,
  previous: Cursor | null,
  options: CursorCodecOptions,
): [string | null, string | null] {
  if (next === null && previous === null) return [null, null];
  // One fingerprint for both: they stand on the same ordering.
  const fingerprint = options.fingerprint ?? orderingFingerprint(options.order);
  const issued = issuedAt(options);
  const [a, b] = encodeBase64urlTexts(
    next === null ? null : cursorJson(next, fingerprint, issued),
    previous === null ? null : cursorJson(previous, fingerprint, issued),
  );
  return [
    next === null ? null : tokenOf(next, a!, options),
    previous === null ? null : tokenOf(previous, b!, options),
  ];
}

/** `JSON.stringify(encodeValue(value))`: only a string's own text may need escaping. */
function valueJson(value: PositionValue): string {
  const encoded = encodeValue(value);
  if (typeof value === 'string') return JSON.stringify(encoded);
  return typeof encoded === 'string' ? `"${encoded}"` : `${encoded}`;
}

function tooLong(
  length: number,
  maxLength: number,
  cursor: Cursor,
  order: readonly KeyTerm[],
): ConfigurationError {
  const sizes = (cursor.position ?? []).map((value) => JSON.stringify(encodeValue(value)).length);
  const widest = sizes.indexOf(Math.max(...sizes));
  const field = order[widest]?.field;
  return new ConfigurationError(
    `A cursor for this page would be ${length} characters, longer than maxCursorLength (${maxLength}) ` +
      'accepts, so its link would be refused' +
      (field === undefined ? '. ' : `: the position holds a ${sizes[widest]}-byte value of "${field}". `) +
      'Raise maxCursorLength (cursors travel in URLs: keep them under what your proxies accept) or ' +
      'order by a shorter field.',
  );
}

/**
 * Decodes a token strictly: the alphabet, the signature (when a secret is set), the JSON shape,
 * every value's type tag, the ordering fingerprint and the position's length are all checked.
 * Throws `CursorDecodeError` on any mismatch.
 */
export function decodeCursor(token: string, options: CursorCodecOptions): Cursor {
  if (options.encryptionKey !== null && options.encryptionKey !== undefined) throw synchronousEncryption();
  if (token.length > (options.maxLength ?? DEFAULT_MAX_CURSOR_LENGTH))
    throw new CursorDecodeError('too long');
  checkTtl(options);
  const dot = token.indexOf('.');
  const payload = dot === -1 ? token : token.slice(0, dot);
  const signature = dot === -1 ? undefined : token.slice(dot + 1);
  if (signature?.includes('.') || !BASE64URL.test(payload)) {
    throw new CursorDecodeError('not a cursor token');
  }
  if (options.secret != null && signingKey(options.secret) !== null) {
    if (signature === undefined || !BASE64URL.test(signature)) throw new CursorDecodeError('unsigned');
    if (!verifySignature(payload, signature, options.secret!)) throw new CursorDecodeError('bad signature');
  } else if (signature !== undefined) {
    throw new CursorDecodeError('signed, but no secret is configured');
  }
  const bytes = decodeCanonicalBase64url(payload);
  if (bytes === null) throw new CursorDecodeError('not canonical base64url');
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new CursorDecodeError('not JSON');
  }
  return cursorOfJson(text, options);
}

/**
 * `decodeCursor`, decrypting when `options.encryptionKey` is set: then only a token one of its
 * keys encrypted is read (plain and signed ones are `CursorDecodeError`); otherwise the same as
 * `decodeCursor`.
 *
 * @example
 * const cursor = await decodeCursorAsync(token, { order, encryptionKey: [newKey, oldKey] });
 */
export async function decodeCursorAsync(token: string, options: CursorCodecOptions): Promise<Cursor> {
  const keys = encryptionKeys(options.encryptionKey);
  if (keys === null) return decodeCursor(token, options);
  if (token.length > (options.maxLength ?? DEFAULT_MAX_CURSOR_LENGTH))
    throw new CursorDecodeError('too long');
  checkTtl(options);
  if (!BASE64URL.test(token)) throw new CursorDecodeError('not an encrypted cursor');
  const text = await decryptCursorText(token, keys);
  if (text === null) throw new CursorDecodeError('not encrypted by any configured key');
  return cursorOfJson(text, options);
}

/** The cursor a token's JSON describes, every field checked (see `decodeCursor`). */
function cursorOfJson(text: string, options: CursorCodecOptions): Cursor {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CursorDecodeError('not JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new CursorDecodeError('not an object');
  for (const key of Object.keys(body)) {
    if (key !== 'k' && key !== 'o' && key !== 'r' && key !== 'p' && key !== 't')
      throw new CursorDecodeError('unknown fields');
  }
  const { k, o = 0, r = 0, p = null, t } = body as Record<string, unknown>;
  if (t !== undefined && (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0))
    throw new CursorDecodeError('bad time');
  if (options.ttl !== null && options.ttl !== undefined) {
    // A token minted without a lifetime never expires: it is no token of this configuration.
    if (t === undefined) throw new CursorDecodeError('no time');
    if ((options.now ?? Date.now()) - (t as number) > options.ttl) throw new CursorDecodeError('expired');
  }
  if (k !== (options.fingerprint ?? orderingFingerprint(options.order)))
    throw new CursorDecodeError('minted for another ordering');
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw new CursorDecodeError('bad offset');
  if (r !== 0 && r !== 1) throw new CursorDecodeError('bad direction');
  if (p !== null && (!Array.isArray(p) || p.length !== options.order.length)) {
    throw new CursorDecodeError('bad position');
  }
  const offset = options.offsetCutoff ? Math.min(o, options.offsetCutoff) : o;
  return { offset, reverse: r === 1, position: p === null ? null : p.map(decodeValue) };
}
