import {
  ConfigurationError,
  type CountResult,
  compareUnderTerm,
  InvalidBoundError,
  isPositionValue,
  type KeyTerm,
  kindOf,
  type OrderedQuery,
  type OrderingInput,
  type OrderTerm,
  type PositionValue,
  parseOrdering,
  settleNulls,
  type WindowRow,
  type WindowSpec,
} from '@pagewise/core';

/** Integer text as Django's `int` path lookups take it: base-10 digits with an optional `-`. */
const INTEGER_TEXT = /^-?\d+$/;
/** Decimal text, for a field of non-integer numbers. */
const DECIMAL_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Options of `fromArray`. */
export interface ArrayQueryOptions<Row> {
  /**
   * Re-orders the rows by these fields (a stable sort: equal rows keep their array order), and
   * reports them as the query's ordering. Without it the rows stay in array order.
   */
  ordering?: OrderingInput;
  /**
   * A field unique per row, used as the cursor tiebreaker, or the fields that are unique together
   * (a composite key, `['tenant_id', 'id']`: each one the ordering lacks is appended). `null` (the
   * default) uses the row's index in the array, which is unique too. A cursor page over an
   * ordering in which two rows tie, key included, is a `ConfigurationError` (found while sorting,
   * once per ordering).
   * @default null
   * @example
   * fromArray(rows, { uniqueKey: ['tenant_id', 'id'], ordering: '-created' })
   */
  uniqueKey?: string | readonly string[] | null;
  /**
   * Reads a field of a row. The default reads object properties (`undefined` counts as NULL).
   * @default (row, field) => row[field]
   */
  getField?: (row: Row, field: string) => unknown;
  /**
   * Accepted as the SQL adapters take it (`fromKysely(q, { deferredJoin: true })`), so one option
   * object serves every adapter; an array has no rows to skip before a page, so it changes nothing.
   * @default false
   */
  deferredJoin?: boolean;
}

/** Name of the tiebreaker when it is the row's index. */
const INDEX_KEY = '#index';

interface Entry<Row> {
  readonly row: Row;
  readonly index: number;
}

/** The rows sorted by one ordering, and the first two its unique term fails to tell apart. */
interface Sorted<Row> {
  readonly entries: readonly Entry<Row>[];
  /** Two rows equal on every term of an ordering with a unique term, with their shared position. */
  readonly repeat: { readonly a: number; readonly b: number; readonly position: PositionValue[] } | null;
}

function defaultGetField(row: unknown, field: string): unknown {
  return row !== null && typeof row === 'object' ? (row as Record<string, unknown>)[field] : undefined;
}

function asPositionValue(value: unknown, field: string): PositionValue {
  if (value === undefined) return null;
  if (isPositionValue(value)) return value;
  throw new ConfigurationError(
    `memory adapter: field "${field}" holds a ${typeof value}, which cannot be ordered`,
  );
}

const isNaNValue = (value: PositionValue): boolean => typeof value === 'number' && Number.isNaN(value);

/**
 * Core's order of two values under a term, plus Postgres's rule for NaN, which JS comparisons
 * cannot order: above every other number, equal to itself (an unordered NaN breaks the sort).
 */
function compareUnder(term: KeyTerm, a: PositionValue, b: PositionValue): number {
  const nanA = isNaNValue(a);
  const nanB = isNaNValue(b);
  const other = nanA ? b : a;
  if ((!nanA && !nanB) || other === null || kindOf(other) !== 'number') return compareUnderTerm(term, a, b);
  const c = nanA && nanB ? 0 : nanA ? 1 : -1;
  return term.direction === 'asc' ? c : -c;
}

function comparePositions(
  order: readonly KeyTerm[],
  a: readonly PositionValue[],
  b: readonly PositionValue[],
): number {
  for (let i = 0; i < order.length; i += 1) {
    const c = compareUnder(order[i]!, a[i] ?? null, b[i] ?? null);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * `uniqueKey` as given, checked: a list of one field is that field, and a composite key names
 * distinct fields.
 */
function keyFieldsOf(uniqueKey: string | readonly string[] | null): readonly string[] | null {
  if (uniqueKey === null) return null;
  const keys: readonly unknown[] = typeof uniqueKey === 'string' ? [uniqueKey] : uniqueKey;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((key) => typeof key === 'string' && key !== '') ||
    new Set(keys).size !== keys.length
  ) {
    throw new ConfigurationError(
      `memory adapter: uniqueKey must be a field name or a list of distinct field names, got ${JSON.stringify(uniqueKey)}`,
    );
  }
  return Object.freeze([...(keys as string[])]);
}

/** A key as messages name it: `"id"`, or `["tenant_id", "id"]` for a composite one. */
const keyText = (keys: readonly string[]): string =>
  keys.length === 1 ? `"${keys[0]}"` : `[${keys.map((key) => `"${key}"`).join(', ')}]`;

class ArrayQuery<Row> implements OrderedQuery<Row> {
  readonly adapter = 'memory';
  readonly ordered = true;
  readonly uniqueKey: string | null;
  readonly uniqueKeys: readonly string[] | undefined;
  readonly description: string;
  readonly ordering: readonly OrderTerm[];
  readonly #entries: readonly Entry<Row>[];
  readonly #getField: (row: Row, field: string) => unknown;
  /** The key's fields; `null` breaks ties by the row's index. */
  readonly #keyFields: readonly string[] | null;
  /** Sorted copies per ordering: a query object is immutable, so they never go stale. */
  readonly #sorted = new Map<string, Sorted<Row>>();

  constructor(
    entries: readonly Entry<Row>[],
    ordering: readonly OrderTerm[],
    getField: (row: Row, field: string) => unknown,
    keyFields: readonly string[] | null,
  ) {
    this.#entries = entries;
    this.ordering = ordering;
    this.#getField = getField;
    this.#keyFields = keyFields;
    const composite = keyFields !== null && keyFields.length > 1;
    this.uniqueKey = keyFields === null ? INDEX_KEY : composite ? null : keyFields[0]!;
    this.uniqueKeys = composite ? keyFields : undefined;
    this.description = `array of ${entries.length} rows`;
  }

  orderBy(terms: readonly OrderTerm[]): ArrayQuery<Row> {
    this.#checkFields(terms);
    const sorted = this.#sort(terms.map(settleNulls)).entries;
    return new ArrayQuery(sorted, [...terms], this.#getField, this.#keyFields);
  }

  async count(): Promise<CountResult> {
    return { value: this.#entries.length, exact: true };
  }

  async fetch(window: WindowSpec): Promise<ReadonlyArray<WindowRow<Row>>> {
    const order = window.order ?? [];
    const { entries, repeat } = this.#sort(order);
    // Keyset windows only: offset ones never bound by the key.
    if (repeat !== null && window.order !== null) this.#refuseRepeat(order, repeat);
    let start = 0;
    if (window.after !== null) {
      this.#checkBound(order, window.after, entries);
      start = this.#firstAfter(order, entries, window.after);
    }
    start += window.offset;
    let end = window.limit === null ? entries.length : start + window.limit;
    const before = window.before ?? null;
    if (before !== null) {
      this.#checkBound(order, before, entries);
      end = Math.min(end, this.#firstAfter(order, entries, before, true));
    }
    return entries.slice(start, end).map((entry) => ({
      row: entry.row,
      position: this.#position(order, entry),
    }));
  }

  /**
   * The first row (in the query's order) whose field, written as text, is `value`: `'7'` finds
   * `7` and `7n`, dates match their ISO form. A field no row has fails as in `orderBy`.
   *
   * @example
   * await fromArray(rows).find('id', '7')
   */
  async find(field: string, value: string): Promise<Row | null> {
    this.#checkFields([{ field }]);
    for (const entry of this.#entries) {
      const held = this.#getField(entry.row, field);
      const text = held instanceof Date ? held.toISOString() : held;
      if (text !== null && text !== undefined && String(text) === value) return entry.row;
    }
    return null;
  }

  /**
   * Whether `value` (a path value) is written as a value of `field`'s type, found or not. The
   * array has no declared types, so its values stand for one: a field whose values are all
   * integers (numbers or bigints) takes integer text alone (`'999'`, `'-1'`; not `'abc'`, `'1.5'`),
   * one whose values are all finite numbers takes decimal text, and any other field any text.
   *
   * @example
   * await fromArray([{ id: 1 }]).accepts('id', 'abc') // false; '999' is true
   */
  async accepts(field: string, value: string): Promise<boolean> {
    this.#checkFields([{ field }]);
    let integers = true;
    let seen = false;
    for (const entry of this.#entries) {
      const held = this.#getField(entry.row, field);
      if (held === null || held === undefined) continue;
      seen = true;
      if (typeof held === 'bigint') continue;
      if (typeof held !== 'number' || !Number.isFinite(held)) return true;
      if (!Number.isInteger(held)) integers = false;
    }
    if (!seen) return true;
    return (integers ? INTEGER_TEXT : DECIMAL_TEXT).test(value);
  }

  #value(term: Pick<KeyTerm, 'field' | 'unique'>, entry: Entry<Row>): PositionValue {
    if (term.unique && this.#keyFields === null) return entry.index;
    return asPositionValue(this.#getField(entry.row, term.field), term.field);
  }

  #position(order: readonly KeyTerm[], entry: Entry<Row>): PositionValue[] {
    return order.map((term) => this.#value(term, entry));
  }

  /**
   * The rows sorted by `order`, once per ordering. With a unique term naming a field (not the
   * row's index), the sort also finds the first two rows equal on every term, by comparing each
   * row with the next: one more pass over positions already read, the whole cost of checking that
   * the key is unique where the array is all there is to know.
   */
  #sort(order: readonly KeyTerm[]): Sorted<Row> {
    if (order.length === 0) return { entries: this.#entries, repeat: null };
    const signature = JSON.stringify(order);
    let sorted = this.#sorted.get(signature);
    if (!sorted) {
      this.#checkFields(order);
      const keyed = this.#entries.map((entry) => ({ entry, key: this.#position(order, entry) }));
      keyed.sort((a, b) => comparePositions(order, a.key, b.key));
      const keys = this.#keyFields;
      let repeat: Sorted<Row>['repeat'] = null;
      if (keys !== null && order.some((term) => term.unique === true || keys.includes(term.field))) {
        for (let i = 1; i < keyed.length && repeat === null; i += 1) {
          const [a, b] = [keyed[i - 1]!, keyed[i]!];
          if (comparePositions(order, a.key, b.key) === 0) {
            repeat = { a: a.entry.index, b: b.entry.index, position: a.key };
          }
        }
      }
      sorted = { entries: keyed.map((k) => k.entry), repeat };
      this.#sorted.set(signature, sorted);
    }
    return sorted;
  }

  /**
   * A keyset window over an ordering whose unique field repeats would skip or repeat the rows
   * that tie: refused, as the Kysely adapter refuses a key no unique index covers.
   */
  #refuseRepeat(order: readonly KeyTerm[], repeat: NonNullable<Sorted<Row>['repeat']>): never {
    const fields = order.map((term) => `"${term.field}"`).join(', ');
    const values = repeat.position.map((value) =>
      value instanceof Date ? value.toISOString() : String(value),
    );
    throw new ConfigurationError(
      `memory adapter: uniqueKey ${keyText(this.#keyFields!)} does not make the cursor order unique: the rows ` +
        `at array indexes ${repeat.a} and ${repeat.b} both hold (${values.join(', ')}) in ${fields}, so ` +
        'pages would skip or repeat rows that tie; name a field unique per row, or leave uniqueKey ' +
        "unset to break ties by the row's index",
    );
  }

  /**
   * With the default field reader, a field no row has is a mistake that SQL reports as an unknown
   * column; sorting it as NULL would answer pages in an order nobody asked for.
   */
  #checkFields(order: readonly Pick<KeyTerm, 'field' | 'unique'>[]): void {
    if (this.#getField !== defaultGetField || this.#entries.length === 0) return;
    for (const term of order) {
      if (term.unique && this.#keyFields === null) continue;
      const known = this.#entries.some(
        ({ row }) => row !== null && typeof row === 'object' && term.field in (row as object),
      );
      if (!known) {
        throw new ConfigurationError(
          `memory adapter: unknown field "${term.field}": no row has it (SQL fails the same way on ` +
            'an unknown column); order by a field the rows hold, or pass getField to read computed ones',
        );
      }
    }
  }

  /** Binary search for the first entry strictly after `bound` (`orEqual`: at or after it). */
  #firstAfter(
    order: readonly KeyTerm[],
    entries: readonly Entry<Row>[],
    bound: readonly PositionValue[],
    orEqual = false,
  ): number {
    const least = orEqual ? -1 : 0;
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (comparePositions(order, this.#position(order, entries[mid]!), bound) <= least) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A bound value must be NULL or of the kind its column holds, as a typed database column demands. */
  #checkBound(
    order: readonly KeyTerm[],
    bound: readonly PositionValue[],
    entries: readonly Entry<Row>[],
  ): void {
    if (bound.length !== order.length) {
      throw new InvalidBoundError('memory', `expected ${order.length} bound values, got ${bound.length}`);
    }
    order.forEach((term, i) => {
      const value = bound[i] ?? null;
      if (value === null) return;
      let sample: PositionValue = null;
      for (const entry of entries) {
        sample = this.#value(term, entry);
        if (sample !== null) break;
      }
      if (sample === null || kindOf(sample) !== kindOf(value)) {
        throw new InvalidBoundError('memory', `bound value for "${term.field}" is not of the field's kind`);
      }
    });
  }
}

/**
 * Pages a plain array. Rows are plain values or objects, in their array order, re-orderable by
 * fields; the cursor tiebreaker is the row's index unless `uniqueKey` names a field.
 *
 * @example
 * const query = fromArray(articles, { ordering: '-published' });
 * const rows = await new PageNumberPagination({ pageSize: 20 }).paginateQueryset(query, request);
 */
export function fromArray<Row>(
  rows: readonly Row[],
  options: ArrayQueryOptions<Row> = {},
): OrderedQuery<Row> {
  const getField = options.getField ?? defaultGetField;
  const base = new ArrayQuery<Row>(
    rows.map((row, index) => ({ row, index })),
    [],
    getField,
    keyFieldsOf(options.uniqueKey ?? null),
  );
  return options.ordering === undefined ? base : base.orderBy(parseOrdering(options.ordering));
}
