import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeBase64url, encodeBase64url, encodeBase64urlText, isCanonicalBase64url } from './base64url.js';

// Buffer is the reference the cursor tokens were first minted with; the codec must agree with it
// byte for byte so that every token issued before keeps decoding to the same cursor.
describe('base64url', () => {
  test('encodes every byte string as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(encodeBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
    );
  });

  test('long byte strings encode as Buffer does, past one String.fromCharCode chunk', () => {
    const bytes = Uint8Array.from({ length: 10_001 }, (_, i) => (i * 7919) % 256);
    expect(encodeBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
  });

  test('decodes what it encodes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(decodeBase64url(encodeBase64url(bytes))).toEqual(bytes);
      }),
    );
  });

  test('any text of the alphabet decodes to the bytes Buffer reads, or to null for an impossible length', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 }), (text) => {
        const decoded = decodeBase64url(text);
        if (text.length % 4 === 1) expect(decoded).toBeNull();
        else expect(Buffer.from(decoded!).equals(Buffer.from(text, 'base64url'))).toBe(true);
      }),
    );
  });

  test('characters outside the alphabet are refused', () => {
    for (const text of ['ab+c', 'ab/c', 'abc=', 'ab c', 'abcé', 'ab\u0000c'])
      expect(decodeBase64url(text)).toBeNull();
  });

  test('text encodes as Buffer encodes its UTF-8 bytes, lone surrogates and long text included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ maxLength: 9000 })), (text) => {
        expect(encodeBase64urlText(text)).toBe(Buffer.from(text, 'utf8').toString('base64url'));
      }),
    );
    const long = 'x'.repeat(100_000);
    expect(encodeBase64urlText(long)).toBe(Buffer.from(long).toString('base64url'));
  });

  test('canonical exactly when re-encoding gives the same text', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 12 }), (text) => {
        const decoded = decodeBase64url(text);
        fc.pre(decoded !== null);
        expect(isCanonicalBase64url(text)).toBe(encodeBase64url(decoded) === text);
      }),
    );
    expect(isCanonicalBase64url('eQ')).toBe(true);
    expect(isCanonicalBase64url('eR')).toBe(false);
  });
});
