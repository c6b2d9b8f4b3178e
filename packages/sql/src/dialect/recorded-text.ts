import type { PositionValue } from '@pagewise/core';
import type { SqlFragment } from '../fragment/fragment.js';
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
