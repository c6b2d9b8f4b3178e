// Issue 15: `nameStatements` parses Postgres's ISO timestamp text itself where pg would use its
// default parser (postgres-date), for speed. The answers must be postgres-date's, value for value:
// the same instant (or the same invalid Date, or the same ±Infinity), in every process time zone
// (timestamps without an offset and dates are local time to postgres-date), and any text outside
// the grammar it reads is left to postgres-date.

import { isStockDateParser, parseDateText } from '@pagewise/sql';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreProcessZone } from '../support/process-zone.js';

const stock = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;

/** A value as comparable text: the instant of a Date (`NaN` when invalid), or the number. */
function shown(value: unknown): string {
  if (value instanceof Date) return `Date ${value.getTime()}`;
  return `${typeof value} ${String(value)}`;
}

const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));

/** Postgres's ISO output of a `timestamptz`, `timestamp` or `date`, in any session time zone. */
const isoText = fc
  .record({
    year: fc.oneof(
      fc.integer({ min: 1, max: 9999 }),
      fc.integer({ min: 1, max: 120 }),
      fc.integer({ min: 10_000, max: 294_276 }),
      fc.constantFrom(1, 100, 275_760, 275_761, 271_821, 271_822),
    ),
    month: two(1, 12),
    day: two(1, 31),
    time: fc.option(fc.tuple(two(0, 23), two(0, 59), two(0, 59)), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
    offset: fc.option(
      fc.tuple(
        fc.constantFrom('+', '-'),
        two(0, 15),
        fc.option(two(0, 59), { nil: undefined }),
        fc.option(two(0, 59), { nil: undefined }),
      ),
      { nil: undefined },
    ),
    bc: fc.boolean(),
  })
  .map(({ year, month, day, time, fraction, offset, bc }) => {
    let text = `${String(year).padStart(4, '0')}-${month}-${day}`;
    if (time !== undefined) {
      text += ` ${time.join(':')}${fraction === undefined ? '' : `.${fraction}`}`;
      if (offset !== undefined) {
        const [sign, hours, minutes, seconds] = offset;
        text += `${sign}${hours}`;
        if (minutes !== undefined) text += `:${minutes}${seconds === undefined ? '' : `:${seconds}`}`;
      }
    }
    return bc ? `${text} BC` : text;
  });

/** `text` with one character inserted, removed or replaced: near misses of the grammar. */
const nearMiss = fc
  .tuple(
    isoText,
    fc.nat(),
    fc.constantFrom('insert', 'remove', 'replace'),
    fc.constantFrom(...' -:.+0159BCZTz'),
  )
  .map(([text, n, edit, char]) => {
    const at = n % (text.length + 1);
    if (edit === 'insert') return text.slice(0, at) + char + text.slice(at);
    if (edit === 'remove') return text.slice(0, at) + text.slice(at + 1);
    return text.slice(0, at) + char + text.slice(at + 1);
  });

/** Years 1 BC to 99 AD are postgres-date's own (its two-digit year handling): left to it. */
function leftToStock(text: string): boolean {
  const year = /^(\d+)-/.exec(text);
  if (year === null) return false;
  const astronomical = text.endsWith(' BC') ? 1 - Number(year[1]) : Number(year[1]);
  return astronomical >= 0 && astronomical <= 99;
}

afterAll(restoreProcessZone);

describe('parseDateText answers what postgres-date answers', () => {
  for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Amsterdam']) {
    it(`ISO output of every type, every year Postgres holds, process TZ ${tz}`, () => {
      process.env.TZ = tz;
      const offsets = { UTC: 0, 'America/New_York': 300, 'Asia/Kolkata': -330, 'Australia/Lord_Howe': -660 };
      expect(new Date(2024, 0, 1).getTimezoneOffset()).toBe(offsets[tz as keyof typeof offsets] ?? -60);
      fc.assert(
        fc.property(isoText, (text) => {
          const fast = parseDateText(text);
          if (fast === undefined) return leftToStock(text);
          expect(shown(fast), text).toBe(shown(stock(text)));
          return !leftToStock(text);
        }),
        { numRuns: 4000 },
      );
    });
  }

  it('near misses of the grammar: postgres-date or nothing', () => {
    process.env.TZ = 'America/St_Johns';
    fc.assert(
      fc.property(fc.oneof(nearMiss, fc.string({ maxLength: 40 })), (text) => {
        const fast = parseDateText(text);
        if (fast !== undefined) expect(shown(fast), text).toBe(shown(stock(text)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('the texts Postgres sends that matter most', () => {
    process.env.TZ = 'Asia/Kathmandu';
    const cases: Array<[string, string]> = [
      ['2024-05-01 12:00:00.123456+00', 'Date 1714564800123'],
      ['2024-05-01 12:00:00.5+05:30', 'Date 1714545000500'],
      ['1850-01-01 00:00:00+05:53:28', `Date ${Date.UTC(1849, 11, 31, 18, 6, 32)}`],
      ['1883-11-18 12:03:57-04:56:02', `Date ${Date.UTC(1883, 10, 18, 16, 59, 59)}`],
      ['0044-03-15 12:00:00.000001+00 BC', `Date ${Date.UTC(-43, 2, 15, 12)}`],
      ['10000-01-01 00:00:00.5+00', 'Date 253402300800500'],
      ['275760-09-13 00:00:00+00', 'Date 8640000000000000'],
      ['275760-09-13 00:00:00.001+00', 'Date NaN'],
      // Past the Date range before the offset moves it back inside: postgres-date's Date.UTC is
      // invalid already.
      ['275760-09-13 00:30:00+01', 'Date NaN'],
      ['271822-04-19 23:30:00-01 BC', 'Date NaN'],
      ['271822-04-20 00:00:00+00 BC', 'Date -8640000000000000'],
      ['294276-12-31 23:59:59.999999+00', 'Date NaN'],
      ['infinity', 'number Infinity'],
      ['-infinity', 'number -Infinity'],
    ];
    for (const [text, expected] of cases) {
      expect(shown(stock(text)), `postgres-date ${text}`).toBe(expected);
      expect(shown(parseDateText(text)), text).toBe(expected);
    }
    for (const text of ['2024-05-01', '2024-05-01 12:00:00', '2024-05-01 BC', '2024-05-01 12:00:00.25 BC']) {
      expect(shown(parseDateText(text)), text).toBe(shown(stock(text)));
    }
    for (const text of [
      '01.05.2024 12:00:00 CEST',
      'Wed May 01 12:00:00 2024 UTC',
      '2024-05-01T12:00:00Z',
      '',
    ]) {
      expect(parseDateText(text), text).toBeUndefined();
    }
  });
});

describe('isStockDateParser', () => {
  it("knows pg's default parsers of timestamps and dates", () => {
    for (const oid of [1184, 1114, 1082]) {
      expect(isStockDateParser(pg.types.getTypeParser(oid, 'text') as never), String(oid)).toBe(true);
    }
  });

  it("a user's parser is not the stock one, even one named parseDate or wrapping it", () => {
    function parseDate(text: string) {
      return stock(text);
    }
    for (const parser of [
      parseDate,
      (text: string) => stock(text),
      stock.bind(null),
      String,
      (t: string) => t,
    ]) {
      expect(isStockDateParser(parser as never)).toBe(false);
    }
  });
});
