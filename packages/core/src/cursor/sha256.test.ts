import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256 } from './sha256.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => new TextEncoder().encode(text);
const fromHex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));

describe('sha256 and hmacSha256', () => {
  it("give FIPS 180-4's and RFC 4231's answers", () => {
    expect(hex(sha256(bytes('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(bytes('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(bytes('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    // RFC 4231 test cases 1, 2 and 6 (a key longer than a block).
    expect(hex(hmacSha256(fromHex('0b'.repeat(20)), bytes('Hi There')))).toBe(
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    );
    expect(hex(hmacSha256(bytes('Jefe'), bytes('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(
      hex(
        hmacSha256(
          fromHex('aa'.repeat(131)),
          bytes('Test Using Larger Than Block-Size Key - Hash Key First'),
        ),
      ),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });

  it('agree with node:crypto on any key and message, block boundaries included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (key, message) => {
        expect(hex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
        expect(hex(hmacSha256(key, message))).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }),
      { numRuns: 500 },
    );
    for (const length of [55, 56, 63, 64, 65, 119, 120, 128]) {
      const message = new Uint8Array(length).fill(7);
      expect(hex(sha256(message)), `${length}`).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });
});
