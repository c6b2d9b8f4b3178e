import { describe, expect, test } from 'vitest';
import type { KeyTerm } from '../contract/ordering.js';
import { decodeCursor, encodeCursor, positionKey } from './cursor-codec.js';
import fixtures from './fixtures/signed-tokens.json' with { type: 'json' };

interface Fixture {
  readonly secret: string | string[];
  readonly cursor: { offset: number; reverse: boolean; position: unknown[] | null };
  readonly token: string;
}

const order = fixtures.order as KeyTerm[];

describe('signed tokens minted before the HMAC moved to @noble/hashes', () => {
  test.each(fixtures.tokens as Fixture[])(
    '$token still verifies and is minted again byte for byte',
    (fixture) => {
      const decoded = decodeCursor(fixture.token, { order, secret: fixture.secret });
      expect(decoded.offset).toBe(fixture.cursor.offset);
      expect(decoded.reverse).toBe(fixture.cursor.reverse);
      expect(positionKey(decoded.position)).toBe(
        fixture.cursor.position === null ? '' : JSON.stringify(fixture.cursor.position),
      );
      expect(encodeCursor(decoded, { order, secret: fixture.secret })).toBe(fixture.token);
      // One flipped signature character, or another key, and it no longer verifies.
      const [payload, signature] = fixture.token.split('.') as [string, string];
      const flipped = `${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      expect(() => decodeCursor(flipped, { order, secret: fixture.secret })).toThrow(/Invalid cursor/);
      expect(() => decodeCursor(fixture.token, { order, secret: 'another key' })).toThrow(/Invalid cursor/);
    },
  );
});
