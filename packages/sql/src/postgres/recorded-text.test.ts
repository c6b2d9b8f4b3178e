import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { positionFromText } from './recorded-text.js';

const ZONED = 'timestamp with time zone';
const LOCAL = 'timestamp without time zone';
const two = (n: number) => String(n).padStart(2, '0');

/** Postgres's ISO text of a wall clock, its fraction as Postgres trims it (no trailing zeros). */
function isoText(y: number, mo: number, d: number, h: number, mi: number, s: number, micro: number): string {
  const fraction = micro === 0 ? '' : `.${String(micro).padStart(6, '0').replace(/0+$/, '')}`;
  return `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}${fraction}`;
}

describe('positionFromText', () => {
  test('UTC timestamps read by character codes equal the same instants written with an offset', () => {
    // `+00` text takes the character-code path; the same instant an hour east (`+01`) goes through
    // the regular expression and the day arithmetic: both must give the same position.
    const clock = fc.record({
      y: fc.integer({ min: 1000, max: 9998 }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 28 }),
      h: fc.integer({ min: 0, max: 22 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      micro: fc.integer({ min: 0, max: 999_999 }),
    });
    fc.assert(
      fc.property(clock, ({ y, mo, d, h, mi, s, micro }) => {
        const utc = positionFromText(`${isoText(y, mo, d, h, mi, s, micro)}+00`, ZONED, 'timestamp-text');
        const east = positionFromText(
          `${isoText(y, mo, d, h + 1, mi, s, micro)}+01`,
          ZONED,
          'timestamp-text',
        );
        expect(utc).toBe(east);
        expect(utc).toBe(`${isoText(y, mo, d, h, mi, s, 0)}.${String(micro).padStart(6, '0')}+00 AD`);
        const precise = positionFromText(
          `${isoText(y, mo, d, h, mi, s, micro)}+00`,
          'timestamp(6) with time zone',
          'timestamp-text',
        );
        expect(precise).toBe(utc);
        expect(positionFromText(isoText(y, mo, d, h, mi, s, micro), LOCAL, 'timestamp-text')).toBe(
          `${isoText(y, mo, d, h, mi, s, 0)}.${String(micro).padStart(6, '0')} AD`,
        );
      }),
    );
  });

  test('text the character codes do not take still reads as before, or not at all', () => {
    expect(positionFromText('2024-05-01 12:00:00+00 BC', ZONED, 'timestamp-text')).toBe(
      '2024-05-01 12:00:00.000000+00 BC',
    );
    expect(positionFromText('12024-05-01 12:00:00.5+00', ZONED, 'timestamp-text')).toBe(
      '12024-05-01 12:00:00.500000+00 AD',
    );
    expect(positionFromText('2024-05-01 12:00:00-00', ZONED, 'timestamp-text')).toBe(
      '2024-05-01 12:00:00.000000+00 AD',
    );
    expect(positionFromText('2024-05-01 12:00:00.123+05:30', ZONED, 'timestamp-text')).toBe(
      '2024-05-01 06:30:00.123000+00 AD',
    );
    expect(positionFromText('infinity', ZONED, 'timestamp-text')).toBe('infinity');
    // Not Postgres's ISO output (another DateStyle, a bare fraction point, an offset on a local type).
    for (const text of [
      'Wed May 01 12:00:00 2024 UTC',
      '2024-05-01 12:00:00.+00',
      '2024-05-01 12:00:00.1234567+00',
    ])
      expect(positionFromText(text, ZONED, 'timestamp-text')).toBeUndefined();
    expect(positionFromText('2024-05-01 12:00:00+00', LOCAL, 'timestamp-text')).toBeUndefined();
    expect(positionFromText('2024-05-01 12:00:00', ZONED, 'timestamp-text')).toBeUndefined();
  });

  test("dates to 5874897 AD, and millisecond timestamps past the last Date, as the stock path's text", () => {
    expect(positionFromText('5874897-12-31', 'date', 'timestamp-text')).toBe('5874897-12-31 AD');
    expect(positionFromText('4714-11-24 BC', 'date', 'timestamp-text')).toBe('4714-11-24 BC');
    // What toPosition makes of `extract(epoch ...)`: '294276-12-31 23:59:59.999000+00 AD'.
    expect(positionFromText('294276-12-31 23:59:59.999+00', 'timestamp(3) with time zone', 'date')).toBe(
      '294276-12-31 23:59:59.999000+00 AD',
    );
    expect(positionFromText('294277-01-01 04:59:59.999+05', 'timestamp(3) with time zone', 'date')).toBe(
      '294276-12-31 23:59:59.999000+00 AD',
    );
    expect(positionFromText('275760-09-13 00:00:00.001', 'timestamp(3) without time zone', 'date')).toBe(
      '275760-09-13 00:00:00.001000 AD',
    );
    expect(positionFromText('275760-09-13 00:00:00', 'timestamp(3) without time zone', 'date')).toEqual(
      new Date(8.64e15),
    );
  });
});
