import type { PositionValue } from '@pagewise/core';
import { wallClockDate } from '../calendar/temporal-text.js';
import { ExactText } from '../codec/exact-text.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import type { RecordedText } from '../dialect/recorded-text.js';
import { identifier, join, literal, raw, type SqlFragment, sql } from '../fragment/fragment.js';
import { mysqlTemporalText } from './temporal-text.js';

// Positions of MySQL/MariaDB DATETIME, TIMESTAMP and DATE columns read from the text the server
// sent for each value (recorded by `recordExactTimestamps`), equal to the ones the
// `cast(... as char)` column gives: the server writes a value the same way in both, TIMESTAMPs in
// the session's time zone. The same cursors whichever way a page was read.

/** The catalog types whose text the recorder keeps (TIME values are strings already). */
const RECORDED_TYPE = /^(date|datetime|timestamp)(\(\d\))?$/;

/**
 * The position of a row's value of a date (`date` kind) or microsecond (`timestamp-text`) column
 * from the text recorded on it: what the stock path reads from the `cast(... as char)` column (the
 * text itself for the zero date and zero parts, which name no day).
 */
function position(value: unknown, info: ColumnInfo): PositionValue | undefined {
  return textPosition(ExactText.of(value), info);
}

/** The position of the text the server sent for a value of `info`'s column (`position`). */
function textPosition(text: string | undefined, info: ColumnInfo): PositionValue | undefined {
  if (text === undefined || text === ExactText.MISSING) return undefined;
  if (info.kind === 'timestamp-text') return text;
  return wallClockDate(text) ?? (mysqlTemporalText(text, info.type ?? '') ? text : undefined);
}

/** One value of each type the recorder sees, and the positions expected. */
const PROBE: ReadonlyArray<readonly [string, string, ColumnInfo, string]> = [
  [
    '2000-01-01 00:00:00.000001',
    'datetime(6)',
    { kind: 'timestamp-text', nullable: false, type: 'datetime(6)' },
    '2000-01-01 00:00:00.000001',
  ],
  [
    '2000-01-01 00:00:00.001',
    'datetime(3)',
    { kind: 'date', nullable: false, type: 'datetime(3)' },
    '2000-01-01T00:00:00.001Z',
  ],
  ['2000-01-01', 'date', { kind: 'date', nullable: false, type: 'date' }, '2000-01-01T00:00:00.000Z'],
];

function expected(found: PositionValue | undefined, wanted: string): boolean {
  return found instanceof Date ? found.getTime() === Date.parse(wanted) : found === wanted;
}

/**
 * MySQL/MariaDB date-times and dates read from the text the server sent (`recordExactTimestamps`
 * records it): the positions the `cast(... as char)` column gives, without selecting it. The
 * probe asks for one value of each kind, so a pool that records nothing, or a `typeCast` of the
 * user's answering strings, keeps the column.
 */
export const mysqlRecordedText: RecordedText = Object.freeze({
  reads: (info: ColumnInfo) =>
    (info.kind === 'date' || info.kind === 'timestamp-text') && RECORDED_TYPE.test(info.type ?? ''),
  probe: (): SqlFragment =>
    sql`select ${join(PROBE.map(([text, type], i) => sql`cast(${literal(text)} as ${raw(type)}) as ${identifier(`v${i}`)}`))}`,
  answered: (row: Record<string, unknown>) =>
    PROBE.every(([, , info, wanted], i) => expected(position(row[`v${i}`], info), wanted)),
  position,
});

/** `driverText`'s positions: of a value the driver handed over as the server's text. */
function driverPosition(value: unknown, info: ColumnInfo): PositionValue | undefined {
  return typeof value === 'string' ? textPosition(value, info) : undefined;
}

/**
 * MySQL/MariaDB date-times and dates handed over by the driver as the text the server sent
 * (Drizzle's mysql2 session reads them with `field.string()`): the positions `mysqlRecordedText`
 * reads from recorded text, read from the value itself, so the column is selected as it is
 * instead of through `cast(... as char)`. The same probe decides.
 */
export const mysqlDriverText: RecordedText = Object.freeze({
  reads: mysqlRecordedText.reads,
  probe: mysqlRecordedText.probe,
  answered: (row: Record<string, unknown>) =>
    PROBE.every(([, , info, wanted], i) => expected(driverPosition(row[`v${i}`], info), wanted)),
  position: driverPosition,
});
