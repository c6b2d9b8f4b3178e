import { describe, expect, it } from 'vitest';
import { RENDER_STYLES, renderSql } from '../fragment/render.js';
import { parseDateText } from './date-parser.js';
import { postgresTextInPlace } from './text-in-place.js';

/**
 * The probe's row: each `x` column the literal the probe casts (as a UTC session writes most of
 * them), each `t` column what `value` answers for it.
 */
function probeRow(value: (text: string, column: string) => unknown): Record<string, unknown> {
  const text = renderSql(postgresTextInPlace.probe(), RENDER_STYLES.postgres).sql;
  const row: Record<string, unknown> = {};
  for (const [, literal, column] of text.matchAll(
    /cast\(cast\('([^']+)' as \w+\) as text\) as "(x\d+_\d+)"/g,
  )) {
    row[column!] = literal;
    row[`t${column!.slice(1)}`] = value(literal!, column!);
  }
  return row;
}

describe('postgresTextInPlace', () => {
  it('probes each type; a driver answering what parseDateText reads takes all three in place', () => {
    expect(postgresTextInPlace.answered(probeRow((text) => parseDateText(text)))).toEqual([
      'timestamptz',
      'timestamp',
      'date',
    ]);
  });

  it("a parser answering strings, or JavaScript's own Date parse, keeps its types out", () => {
    const zoned = (column: string) => column.startsWith('x0_');
    expect(
      postgresTextInPlace.answered(probeRow((text, c) => (zoned(c) ? text : parseDateText(text)))),
    ).toEqual(['timestamp', 'date']);
    // `new Date(text)` agrees on plain values, not on BC, infinity or years past 9999.
    expect(postgresTextInPlace.answered(probeRow((text) => new Date(text)))).toEqual([]);
  });

  it('names the probed type of each catalog type, precision or not', () => {
    const info = (type: string) => ({ kind: 'timestamp-text' as const, nullable: false, type });
    expect(postgresTextInPlace.probedType(info('timestamp(3) with time zone'))).toBe('timestamptz');
    expect(postgresTextInPlace.probedType(info('timestamp without time zone'))).toBe('timestamp');
    expect(postgresTextInPlace.probedType(info('date'))).toBe('date');
    expect(postgresTextInPlace.probedType(info('time with time zone'))).toBeUndefined();
  });
});
