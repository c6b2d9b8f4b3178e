/**
 * Base64url without padding (RFC 4648 §5), the cursor tokens' alphabet, written with Web
 * standards only so that core runs where there is no `Buffer`.
 */

const utf8 = new TextEncoder();

/** Characters built per `String.fromCharCode` call: far below any engine's argument limit. */
const CHUNK = 4096;

/** The character code of a 6-bit value in the alphabet `A-Z a-z 0-9 - _`. */
function alphabetCode(value: number): number {
  if (value < 26) return 65 + value;
  if (value < 52) return 71 + value;
  if (value < 62) return value - 4;
  return value === 62 ? 45 : 95;
}

/** The 6-bit value of an alphabet character code, or -1 (NaN from a missing character included). */
function alphabetValue(code: number): number {
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 97 && code <= 122) return code - 71;
  if (code >= 48 && code <= 57) return code + 4;
  if (code === 45) return 62;
  return code === 95 ? 63 : -1;
}

/**
 * The base64url text of a string whose character codes are bytes, or `null` when a code is above
 * `max`. Codes are gathered in an array and made a string a chunk at a time (a string grown a
 * character at a time costs more).
 */
function encodeByteString(text: string, max: number): string | null {
  const length = text.length;
  const codes = new Array<number>(Math.min(CHUNK, Math.ceil(length / 3) * 4));
  let out = '';
  let at = 0;
  let i = 0;
  for (; i + 2 < length; i += 3) {
    const b0 = text.charCodeAt(i);
    const b1 = text.charCodeAt(i + 1);
    const b2 = text.charCodeAt(i + 2);
    if ((b0 | b1 | b2) > max) return null;
    const n = (b0 << 16) | (b1 << 8) | b2;
    codes[at++] = alphabetCode(n >> 18);
    codes[at++] = alphabetCode((n >> 12) & 63);
    codes[at++] = alphabetCode((n >> 6) & 63);
    codes[at++] = alphabetCode(n & 63);
    if (at === CHUNK) {
      out += String.fromCharCode.apply(null, codes);
      at = 0;
    }
  }
  if (i < length) {
    const b0 = text.charCodeAt(i);
    const b1 = i + 1 < length ? text.charCodeAt(i + 1) : 0;
    if ((b0 | b1) > max) return null;
    const n = (b0 << 16) | (b1 << 8);
    codes[at++] = alphabetCode(n >> 18);
    codes[at++] = alphabetCode((n >> 12) & 63);
    if (i + 1 < length) codes[at++] = alphabetCode((n >> 6) & 63);
  }
  codes.length = at;
  return out + String.fromCharCode.apply(null, codes);
}

/**
 * Encodes bytes as base64url without `=` padding.
 *
 * @example
 * encodeBase64url(new TextEncoder().encode('{"k":1}')) // 'eyJrIjoxfQ'
 */
export function encodeBase64url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return encodeByteString(text, 0xff)!;
}

/**
 * Encodes the UTF-8 bytes of `text` as base64url without padding: the same as
 * `encodeBase64url(new TextEncoder().encode(text))`, read straight from the string when it is
 * ASCII (a cursor's JSON nearly always is).
 *
 * @example
 * encodeBase64urlText('{"k":1}') // 'eyJrIjoxfQ'
 */
export function encodeBase64urlText(text: string): string {
  return encodeByteString(text, 0x7f) ?? encodeBase64url(utf8.encode(text));
}

/**
 * Decodes unpadded base64url; `null` for a character outside the alphabet or a length no
 * encoding produces. Leftover bits are dropped, as `Buffer` drops them: callers that need one
 * spelling per value check `isCanonicalBase64url`.
 *
 * @example
 * new TextDecoder().decode(decodeBase64url('eyJrIjoxfQ')!) // '{"k":1}'
 */
export function decodeBase64url(text: string): Uint8Array | null {
  const length = text.length;
  if (length % 4 === 1) return null;
  const bytes = new Uint8Array((length * 3) >> 2);
  let at = 0;
  let i = 0;
  for (; i + 3 < length; i += 4) {
    const a = alphabetValue(text.charCodeAt(i));
    const b = alphabetValue(text.charCodeAt(i + 1));
    const c = alphabetValue(text.charCodeAt(i + 2));
    const d = alphabetValue(text.charCodeAt(i + 3));
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[at++] = n >> 16;
    bytes[at++] = (n >> 8) & 0xff;
    bytes[at++] = n & 0xff;
  }
  const rest = length - i;
  if (rest > 0) {
    const a = alphabetValue(text.charCodeAt(i));
    const b = alphabetValue(text.charCodeAt(i + 1));
    const c = rest === 3 ? alphabetValue(text.charCodeAt(i + 2)) : 0;
    if ((a | b | c) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    bytes[at++] = n >> 16;
    if (rest === 3) bytes[at] = (n >> 8) & 0xff;
  }
  return bytes;
}

/**
 * Whether `text`, base64url of a length some encoding produces, is the one spelling of its bytes:
 * the bits past its last byte are zero. The same as `encodeBase64url(decodeBase64url(text)) === text`
 * for text of the alphabet, without decoding.
 *
 * @example
 * isCanonicalBase64url('eQ') // true; 'eR' decodes to the same byte and is not
 */
export function isCanonicalBase64url(text: string): boolean {
  const rest = text.length % 4;
  if (rest === 0) return true;
  const last = alphabetValue(text.charCodeAt(text.length - 1));
  if (rest === 2) return (last & 15) === 0;
  return rest === 3 && (last & 3) === 0;
}
