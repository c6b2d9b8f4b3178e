import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { PositionValue } from '../contract/ordered-query.js';
import type { KeyTerm } from '../contract/ordering.js';
import {
  CursorDecodeError,
  decodeCursor,
  encodeCursor,
  orderingFingerprint,
  positionKey,
  samePosition,
} from './cursor-codec.js';

const order: KeyTerm[] = [
  { field: 'created', direction: 'desc', nulls: 'first' },
  { field: 'id', direction: 'desc', nulls: 'last', unique: true },
];

const valueArbitrary: fc.Arbitrary<PositionValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.bigInt(),
  fc.string({ unit: 'grapheme' }),
  fc.date({ noInvalidDate: true }),
);

const token = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');

describe('cursor codec', () => {
  test('typed values round-trip exactly', () => {
    fc.assert(
      fc.property(
        fc.tuple(valueArbitrary, valueArbitrary),
        fc.nat(5000),
        fc.boolean(),
        (position, offset, reverse) => {
          const decoded = decodeCursor(encodeCursor({ offset, reverse, position }, { order }), { order });
          expect(decoded.offset).toBe(offset);
          expect(decoded.reverse).toBe(reverse);
          expect(positionKey(decoded.position)).toBe(positionKey(position));
          decoded.position!.forEach((value, i) => {
            const original = position[i]!;
            expect(typeof value).toBe(typeof original);
            if (original instanceof Date) expect((value as Date).getTime()).toBe(original.getTime());
            else expect(Object.is(value, original)).toBe(true);
          });
        },
      ),
    );
  });

  test('tokens are base64url without padding', () => {
    const text = encodeCursor({ offset: 0, reverse: true, position: ['a?b/c+d', 12n] }, { order });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  test('a cursor minted for another ordering is rejected', () => {
    const other: KeyTerm[] = [{ ...order[0]!, direction: 'asc', nulls: 'last' }, order[1]!];
    expect(orderingFingerprint(other)).not.toBe(orderingFingerprint(order));
    const text = encodeCursor({ offset: 0, reverse: false, position: [null, 1] }, { order: other });
    expect(() => decodeCursor(text, { order })).toThrow(CursorDecodeError);
  });

  test('strict decoding rejects every malformed body', () => {
    const k = orderingFingerprint(order);
    const bad = [
      'not base64!',
      `${token({ k, p: [1, 2] })}=`,
      token({ k, o: -1 }),
      token({ k, o: 1.5 }),
      token({ k, o: '3' }),
      token({ k, r: 2 }),
      token({ k, p: [1] }),
      token({ k, p: [1, 2, 3] }),
      token({ k, p: 'x' }),
      token({ k, p: ['x1', 2] }),
      token({ k, p: ['d12x', 2] }),
      token({ k, p: ['b1.5', 2] }),
      token({ k, p: [{}, 2] }),
      token({ k, extra: 1 }),
      token([k]),
      token(null),
      Buffer.from('{"k":').toString('base64url'),
      Buffer.from([0xff, 0xfe]).toString('base64url'),
      'a'.repeat(2000),
    ];
    for (const text of bad) expect(() => decodeCursor(text, { order }), text).toThrow(CursorDecodeError);
  });

  test('payloads are read as UTF-8, strictly: non-ASCII and long ones decode, invalid bytes are rejected', () => {
    const k = orderingFingerprint(order);
    const bytes = (...parts: Array<string | number[]>) =>
      Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    // A string holding a lone 0xff byte, or an overlong encoding of "/", is no UTF-8.
    for (const invalid of [[0xff], [0xc0, 0xaf], [0xe2, 0x98]]) {
      const text = bytes(`{"k":"${k}","p":["s`, invalid, '",1]}').toString('base64url');
      expect(() => decodeCursor(text, { order }), String(invalid)).toThrow(CursorDecodeError);
    }
    const unicode = bytes(`{"k":"${k}","p":["s`, [0xc3, 0xa9, 0xe2, 0x98, 0x83], '",1]}').toString(
      'base64url',
    );
    expect(decodeCursor(unicode, { order }).position).toEqual(['é☃', 1]);
    for (const long of ['x'.repeat(5000), `${'x'.repeat(5000)}é`]) {
      const cursor = { offset: 0, reverse: false, position: [long, 2] };
      const text = encodeCursor(cursor, { order, maxLength: 20_000 });
      expect(decodeCursor(text, { order, maxLength: 20_000 }).position).toEqual([long, 2]);
    }
  });

  test('offsets are clamped to the cutoff, not rejected', () => {
    const text = encodeCursor({ offset: 5000, reverse: false, position: null }, { order });
    expect(decodeCursor(text, { order, offsetCutoff: 1000 }).offset).toBe(1000);
    expect(decodeCursor(text, { order, offsetCutoff: null }).offset).toBe(5000);
  });

  test('signed cursors reject tampering, unsigned tokens and other secrets', () => {
    const cursor = { offset: 0, reverse: false, position: [new Date(0), 5] };
    const signed = encodeCursor(cursor, { order, secret: 's3cret' });
    expect(decodeCursor(signed, { order, secret: 's3cret' }).position).toEqual(cursor.position);
    const [payload, signature] = signed.split('.') as [string, string];
    const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${signature}`;
    for (const text of [payload, flipped, `${payload}.${signature.slice(1)}`, `${payload}.${signature}.x`]) {
      expect(() => decodeCursor(text, { order, secret: 's3cret' }), text).toThrow(CursorDecodeError);
    }
    expect(() => decodeCursor(signed, { order, secret: 'other' })).toThrow(CursorDecodeError);
    expect(() => decodeCursor(signed, { order })).toThrow(CursorDecodeError);
  });

  test('any single-character change of a signed token is rejected', () => {
    const signed = encodeCursor({ offset: 3, reverse: true, position: ['x', 1] }, { order, secret: 'k' });
    fc.assert(
      fc.property(fc.nat(signed.length - 1), fc.constantFrom(...'ABCxyz019-_.'), (at, ch) => {
        fc.pre(signed[at] !== ch);
        const changed = signed.slice(0, at) + ch + signed.slice(at + 1);
        expect(() => decodeCursor(changed, { order, secret: 'k' })).toThrow(CursorDecodeError);
      }),
    );
  });

  test('tokens keep their format: the same bytes as the node:crypto codec minted (golden tokens)', () => {
    const cursor = {
      offset: 3,
      reverse: true,
      position: [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), 42n],
    };
    const payload = 'eyJrIjoiNzkwbmZrIiwibyI6MywiciI6MSwicCI6WyJkMTcwNDE2NDY0NTY3OCIsImI0MiJdfQ';
    expect(encodeCursor(cursor, { order })).toBe(payload);
    expect(encodeCursor(cursor, { order, secret: 's3cret' })).toBe(`${payload}.5obkztEvaZEnH871qf8cvg`);
    const unicode = { offset: 0, reverse: false, position: ['héllo ☃ 𝄞', -0] };
    const signed = 'eyJrIjoiNzkwbmZrIiwicCI6WyJzaMOpbGxvIOKYgyDwnYSeIiwibi0wIl19.3-kobdU-0M9y80qFkTR5xA';
    expect(encodeCursor(unicode, { order, secret: 'ключ' })).toBe(signed);
    expect(encodeCursor({ offset: 0, reverse: false, position: null }, { order })).toBe(
      'eyJrIjoiNzkwbmZrIn0',
    );
    expect(positionKey(decodeCursor(signed, { order, secret: 'ключ' }).position)).toBe(
      positionKey(unicode.position),
    );
  });

  test('payloads are base64url of the UTF-8 JSON and signatures the first 16 bytes of HMAC-SHA256', () => {
    fc.assert(
      fc.property(
        fc.tuple(valueArbitrary, valueArbitrary),
        fc.string({ unit: 'binary', minLength: 1 }),
        (position, secret) => {
          const [payload, signature] = encodeCursor(
            { offset: 0, reverse: false, position },
            { order, secret },
          ).split('.') as [string, string];
          expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).p).toHaveLength(2);
          expect(Buffer.from(payload, 'base64url').toString('base64url')).toBe(payload);
          const mac = createHmac('sha256', secret)
            .update(payload)
            .digest()
            .subarray(0, 16)
            .toString('base64url');
          expect(signature).toBe(mac);
        },
      ),
    );
  });

  // The codec's first form, kept here as the reference every token must still match byte for byte.
  const referenceFingerprint = (terms: readonly KeyTerm[]) => {
    const text = terms
      .map((t) => `${t.field}\u0000${t.direction}\u0000${t.nulls}${t.unique ? '\u0000u' : ''}`)
      .join('\u0001');
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i += 1) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(36);
  };
  const termArbitrary: fc.Arbitrary<KeyTerm> = fc.record(
    {
      field: fc.string({ unit: 'binary', minLength: 1 }),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      nulls: fc.constantFrom('first' as const, 'last' as const),
      unique: fc.constant(true as const),
    },
    { requiredKeys: ['field', 'direction', 'nulls'] },
  );

  test('fingerprints and tokens are the bytes the first codec produced', () => {
    fc.assert(
      fc.property(
        fc.array(termArbitrary, { minLength: 1, maxLength: 4 }),
        fc.option(fc.array(valueArbitrary, { maxLength: 4 })),
        fc.oneof(fc.constant(0), fc.nat(100_000)),
        fc.boolean(),
        (terms, position, offset, reverse) => {
          expect(orderingFingerprint(terms)).toBe(referenceFingerprint(terms));
          const body: Record<string, unknown> = { k: referenceFingerprint(terms) };
          if (offset !== 0) body.o = offset;
          if (reverse) body.r = 1;
          // positionKey is the JSON of the tagged values, as the first codec put them in `p`.
          if (position !== null) body.p = JSON.parse(positionKey(position));
          const expected = Buffer.from(JSON.stringify(body)).toString('base64url');
          const cursor = { offset, reverse, position };
          expect(encodeCursor(cursor, { order: terms, maxLength: Number.POSITIVE_INFINITY })).toBe(expected);
        },
      ),
    );
  });

  test('positions are the same exactly when their keys are, and refused alike', () => {
    const pair = fc.oneof(
      fc.tuple(fc.array(valueArbitrary, { maxLength: 3 }), fc.array(valueArbitrary, { maxLength: 3 })),
      fc
        .array(valueArbitrary, { maxLength: 3 })
        .map((a) => [a, a.map((v) => (v instanceof Date ? new Date(v) : v))]),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(samePosition(a, b)).toBe(positionKey(a) === positionKey(b));
      }),
    );
    expect(samePosition([0], [-0])).toBe(false);
    expect(samePosition([Number.NaN], [Number.NaN])).toBe(true);
    expect(samePosition([new Date(5)], [5])).toBe(false);
    expect(samePosition([1n], [1])).toBe(false);
    expect(samePosition(null, null)).toBe(true);
    expect(samePosition(null, [1])).toBe(false);
    expect(() => samePosition([1], [new Date(Number.NaN)])).toThrow(RangeError);
    expect(() => positionKey([new Date(Number.NaN)])).toThrow(RangeError);
  });
});
