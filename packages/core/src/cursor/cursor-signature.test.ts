import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { signPayload, verifySignature } from './cursor-signature.js';

describe('cursor signatures', () => {
  test('are the first 16 bytes of HMAC-SHA256 as node:crypto computes it', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary', minLength: 1 }),
        (payload, secret) => {
          const reference = createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
          expect(signPayload(payload, secret)).toBe(reference.toString('base64url'));
        },
      ),
    );
  });

  test('verify accepts the signature and nothing else', () => {
    const signature = signPayload('eyJrIjoiNzkwbmZrIn0', 's3cret');
    expect(verifySignature('eyJrIjoiNzkwbmZrIn0', signature, 's3cret')).toBe(true);
    for (const other of [
      '',
      signature.slice(1),
      `${signature}A`,
      signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    ]) {
      expect(verifySignature('eyJrIjoiNzkwbmZrIn0', other, 's3cret'), other).toBe(false);
    }
    expect(verifySignature('eyJrIjoiNzkwbmZrIn1', signature, 's3cret')).toBe(false);
    expect(verifySignature('eyJrIjoiNzkwbmZrIn0', signature, 's3cret ')).toBe(false);
  });
});
