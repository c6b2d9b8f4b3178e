import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallClockDate as mysqlWallClock } from './temporal-text.js';

describe('mysqlWallClock', () => {
  /**
   * The reading by regular expression of the first implementation, for days of the calendar
   * only: it rolled `0000-00-00` and `2023-02-29` over into other days, positions that bound
   * other rows than their own.
   */
  function byPattern(raw: string): number | null {
    const parts = /^(\d{4})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?$/.exec(raw);
    if (parts === null) return null;
    const [y, mo, d, h = '0', mi = '0', s = '0', f = ''] = parts.slice(1);
    const leap = (Number(y) % 4 === 0 && Number(y) % 100 !== 0) || Number(y) % 400 === 0;
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Number(mo) - 1] ?? 0;
    if (Number(d) < 1 || Number(d) > days || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
    const date = new Date(
      Date.UTC(
        2000,
        Number(mo) - 1,
        Number(d),
        Number(h),
        Number(mi),
        Number(s),
        Number(f.padEnd(3, '0').slice(0, 3)),
      ),
    );
    date.setUTCFullYear(Number(y));
    return date.getTime();
  }
  const two = (n: number) => String(n).padStart(2, '0');

  it('reads every date and date-time of the calendar MySQL writes as the regular expression does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.stringMatching(/^(|\.\d{1,6})$/),
        fc.boolean(),
        (y, mo, d, h, mi, s, fraction, dateOnly) => {
          const day = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}`;
          const text = dateOnly ? day : `${day} ${two(h)}:${two(mi)}:${two(s)}${fraction}`;
          expect(mysqlWallClock(text)?.getTime() ?? null).toBe(byPattern(text));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('refuses what is not MySQL text, and what names no day (zero dates: their text is the position)', () => {
    for (const text of [
      '2024-05-01T12:00:00',
      '2024-05-01 12:00:00.',
      '2024-05-01 12:00:00.1234567',
      '2024-5-01',
      '+02024-05-01',
      '2024-05-01 12:00',
      '2024-05-01 12:0a:00',
      '２０２４-05-01',
      '',
    ]) {
      expect(mysqlWallClock(text), text).toBeNull();
    }
    expect(mysqlWallClock('0000-00-00 00:00:00')).toBeNull();
    expect(mysqlWallClock('2024-05-00')).toBeNull();
    expect(mysqlWallClock('2023-02-29 23:59:59.9999')).toBeNull();
    expect(mysqlWallClock('0000-01-01 00:00:00')?.toISOString()).toBe('0000-01-01T00:00:00.000Z');
  });
});
