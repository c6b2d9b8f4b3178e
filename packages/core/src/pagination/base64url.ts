/**
 * Base64url without padding (RFC 4648 §5), the cursor tokens' alphabet, written with Web
 * standards only so that core runs where there is no `Buffer`.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Encodes bytes as base64url without `=` padding.
 *
 * @example
 * encodeBase64url(new TextEncoder().encode('{"k":1}')) // 'eyJrIjoxfQ'
 */
export function encodeBase64url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    const n = (b0 << 16) | ((b1 ?? 0) << 8) | (b2 ?? 0);
    text += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
    if (b1 !== undefined) text += ALPHABET[(n >> 6) & 63]!;
    if (b2 !== undefined) text += ALPHABET[n & 63]!;
  }
  return text;
}

/**
 * Decodes unpadded base64url; `null` for a character outside the alphabet or a length no
 * encoding produces. Leftover bits are dropped, as `Buffer` drops them: callers that need one
 * spelling per value compare the re-encoded text.
 *
 * @example
 * new TextDecoder().decode(decodeBase64url('eyJrIjoxfQ')!) // '{"k":1}'
 */
export function decodeBase64url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffered = 0;
  let at = 0;
  for (let i = 0; i < text.length; i += 1) {
    const value = ALPHABET.indexOf(text[i]!);
    if (value === -1) return null;
    buffered = (buffered << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at] = (buffered >> bits) & 0xff;
      at += 1;
      buffered &= (1 << bits) - 1;
    }
  }
  return bytes;
}
