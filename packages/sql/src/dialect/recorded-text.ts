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
}
