import { ConfigurationError, InvalidBoundError, isPositionValue, type PositionValue } from '@pagewise/core';
import type { ColumnKind, DialectCapabilities } from './dialect-capabilities.js';

const ADAPTER = 'kysely';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** ISO-8601 as Postgres and MySQL write timestamps: optional fraction, optional UTC offset. */
const EXACT_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2})(?::(\d{2}))?)?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Turns a value read from a row into the position value of its column's kind. */
export function toPosition(kind: ColumnKind, raw: unknown, field: string): PositionValue {
  if (raw === null || raw === undefined) return null;
  switch (kind) {
    case 'bigint':
      if (typeof raw === 'bigint') return raw;
      if (typeof raw === 'number' || typeof raw === 'string') return BigInt(raw);
      break;
    case 'number':
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'string' || typeof raw === 'bigint') return Number(raw);
      break;
    case 'date':
      if (raw instanceof Date) return raw;
      if (typeof raw === 'string' || typeof raw === 'number') {
        const date = new Date(raw);
        if (!Number.isNaN(date.getTime())) return date;
      }
      break;
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'number') return raw !== 0;
      break;
    case 'string':
    case 'uuid':
    case 'timestamp-text':
      if (typeof raw === 'string') return raw;
      break;
    case 'unknown':
      if (raw !== null && isPositionValue(raw)) return raw;
      break;
  }
  throw new ConfigurationError(`${ADAPTER} adapter: field "${field}" holds a ${typeof raw}, not a ${kind}`);
}

function invalid(field: string, kind: ColumnKind): never {
  throw new InvalidBoundError(ADAPTER, `bound value for "${field}" does not fit its ${kind} column`);
}

function validExactTimestamp(text: string): boolean {
  const parts = EXACT_TIMESTAMP.exec(text);
  if (!parts) return false;
  const [y, mo, d, h, mi, s] = parts.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [oh = 0, om = 0, os = 0] = parts.slice(7, 10).map((p) => (p === undefined ? 0 : Number(p)));
  // Postgres rejects offsets beyond 15:59:59 with an error.
  if (oh > 15 || om > 59 || os > 59) return false;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/**
 * Checks a non-null bound value against its column and returns the parameter to bind. A value
 * that the database could not compare with the column (a string where a date belongs, a bigint
 * out of range, an impossible timestamp) throws `InvalidBoundError` before any SQL runs.
 */
export function toParameter(
  kind: ColumnKind,
  value: Exclude<PositionValue, null>,
  field: string,
  capabilities: DialectCapabilities,
): unknown {
  switch (kind) {
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX) return value;
      return invalid(field, kind);
    case 'bigint':
      if (typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX) return value;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
      return invalid(field, kind);
    case 'string':
      if (typeof value !== 'string') return invalid(field, kind);
      if (capabilities.textRejectsNul && value.includes('\u0000')) return invalid(field, kind);
      return value;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value : invalid(field, kind);
    case 'date':
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) return invalid(field, kind);
      if (capabilities.minDateMs !== null && value.getTime() < capabilities.minDateMs)
        return invalid(field, kind);
      return capabilities.dateStorage === 'iso-text' ? value.toISOString() : value;
    case 'timestamp-text':
      return typeof value === 'string' && validExactTimestamp(value) ? value : invalid(field, kind);
    case 'boolean':
      return typeof value === 'boolean' ? value : invalid(field, kind);
    case 'unknown':
      return value;
  }
}
