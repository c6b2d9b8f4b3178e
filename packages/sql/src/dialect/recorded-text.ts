import type { PositionValue } from '@pagewise/core';
import type { SqlFragment, SqlPart } from '../fragment/fragment.js';
import type { ColumnInfo } from './column-info.js';

/**
 * Positions read from the exact text a driver recorded beside each value it parsed (`pg` through
 * `nameStatements`), instead of a column selected for them (`positionExpression`).
 * @example
 * postgresCapabilities.recordedText?.reads({ kind: 'timestamp-text', nullable: false, type: 'date' }) // true
 */
export interface RecordedText {
  /** Whether positions of `info`'s column can be read from recorded text. */
  readonly reads: (info: ColumnInfo) => boolean;
  /** A statement of one row whose values show, through `answered`, whether the driver records text. */
  readonly probe: () => SqlFragment;
  readonly answered: (row: Record<string, unknown>) => boolean;
  /** The position of a row's `value`; `undefined` when it carries no text that can be read exactly. */
  readonly position: (value: unknown, info: ColumnInfo) => PositionValue | undefined;
}

/**
 * Positions read from a column's value cast to text by the database (`cast(x as text)`), where the
 * driver parses the value itself into something inexact (`pg`'s `Date` holds milliseconds): a
 * private column as the positions' own expressions are, but one the server writes about as fast
 * as the bare column. The text follows session settings (Postgres: `DateStyle`), so the probe
 * decides once per database, and a value whose text does not read exactly is refused.
 * @example
 * postgresCapabilities.castText?.expression(identifier('created')) // cast("created" as text)
 */
export interface CastText extends RecordedText {
  /** What is selected for a position of the column `column`. */
  readonly expression: (column: SqlPart) => SqlPart;
  /**
   * Whether a value selected so starts as the text the probe found (ISO output): a page whose
   * values do not is read again with the positions' own expressions.
   */
  readonly head: (value: unknown) => boolean;
  /**
   * Where the text can be selected in place of the query's own column (`TextInPlace`); absent
   * where it cannot. @default undefined
   */
  readonly inPlace?: TextInPlace;
}

/**
 * A column read as `CastText`, its text selected in place of the query's own selection of it
 * (`cast("t"."created" as text) as "created"`): no column beside it, and rows get back the value
 * the driver would have parsed (`parse` of the text, which costs less than the driver's own parse
 * of the value). The probe compares, once per database, the driver's value of each probed type
 * with `parse` of its text: a parser the user set, answering anything else, keeps the column
 * beside.
 * @example
 * postgresCastText.inPlace?.parse('2024-05-01 12:00:00.5+02') // 2024-05-01T10:00:00.500Z
 */
export interface TextInPlace {
  /** The type the probe names for a column of `info`'s catalog type (`timestamptz`), `undefined` for one it does not probe. */
  readonly probedType: (info: ColumnInfo) => string | undefined;
  /** A statement of one row with values of each probed type, as the type and as text. */
  readonly probe: () => SqlFragment;
  /** The probed types whose every value the driver answered as `parse` reads its text. */
  readonly answered: (row: Record<string, unknown>) => readonly string[];
  /**
   * What the driver answers for a value whose text is `text`; `undefined` where `parse` cannot
   * tell (the page is then read again with the query's own column).
   */
  readonly parse: (text: string) => unknown;
}
