import { ConfigurationError, hasErrorKind } from '../errors.js';

/** Sort direction of one ordering term. */
export type SortDirection = 'asc' | 'desc';
/** Where NULLs go. Without it, NULL sorts above every value (last ascending, first descending). */
export type NullsPlacement = 'first' | 'last';

/** One ordering term: `{ field: 'created', direction: 'desc' }`. */
export interface OrderTerm {
  readonly field: string;
  readonly direction: SortDirection;
  readonly nulls?: NullsPlacement | undefined;
}

/**
 * A term whose NULL placement is settled, as adapters receive it in a window. `unique` marks the
 * tiebreaker the adapter offered as `OrderedQuery.uniqueKey` (the memory adapter's row index).
 */
export interface KeyTerm {
  readonly field: string;
  readonly direction: SortDirection;
  readonly nulls: NullsPlacement;
  readonly unique?: true;
}

/** How orderings are written in options: `'-created'` or a list of names and terms. */
export type OrderingInput = string | ReadonlyArray<string | OrderTerm>;

/**
 * The fields of `Row` an ordering may name: its string keys, or any string when the row type is
 * unknown or indexed by strings.
 *
 * @example
 * type F = OrderingField<{ id: number; created: Date }>; // 'id' | 'created'
 */
export type OrderingField<Row> = unknown extends Row
  ? string
  : Row extends object
    ? string extends keyof Row
      ? string
      : Extract<keyof Row, string>
    : string;

/**
 * An ordering checked against the row's fields: `'-created'` only when `created` is a field.
 *
 * @example
 * const ordering: TypedOrdering<{ id: number; created: Date }> = ['-created', 'id'];
 */
export type TypedOrdering<Row> =
  | OrderingField<Row>
  | `-${OrderingField<Row>}`
  | ReadonlyArray<
      OrderingField<Row> | `-${OrderingField<Row>}` | (OrderTerm & { field: OrderingField<Row> })
    >;

/** A field of `Row`, or it descending. */
type SignedField<Row> = OrderingField<Row> | `-${OrderingField<Row>}`;

/**
 * What a misspelt field is checked against: a type no text is, whose one key says what is wrong
 * and lists the fields, so the compiler's message names both (an intersection with the fields
 * themselves would be `never`, and the message would name neither).
 */
type NotAField<Field extends string, Fields> = {
  readonly [Key in `"${Field}" is not a field of the rows; they have`]: Fields;
};

/**
 * One term as written in a call, checked against `Row`: a literal must name a field of `Row`; a
 * wide `string` passes, as the compiler cannot know it (the adapter checks it at run time, naming
 * the nearest field).
 */
type CheckedTerm<Row, Term> = Term extends string
  ? string extends Term
    ? Term
    : Term extends SignedField<Row>
      ? Term
      : NotAField<Term, OrderingField<Row>>
  : Term extends { readonly field: infer Field extends string }
    ? string extends Field
      ? Term
      : Field extends OrderingField<Row>
        ? Term
        : { readonly field: NotAField<Field, OrderingField<Row>> }
    : Term;

/**
 * An ordering as written in a call (`Ordering`, inferred), checked against the query's rows:
 * `'-createdAt'` over rows with `created_at` is a compile error naming the fields, in a list or a
 * term object alike. Orderings of type `string` or `OrderingInput` pass unchecked.
 *
 * @example
 * type Ok = CheckedOrdering<{ id: number }, readonly ['-id']>; // readonly ['-id']
 * type Bad = CheckedOrdering<{ id: number }, 'ID'>; // 'id' | '-id': 'ID' is not assignable
 */
export type CheckedOrdering<Row, Ordering> = Ordering extends readonly unknown[]
  ? { readonly [K in keyof Ordering]: CheckedTerm<Row, Ordering[K]> }
  : CheckedTerm<Row, Ordering>;

/**
 * What a page function's options must also be: their `ordering` checked against the query's rows
 * (`CheckedOrdering`). Page functions take `Options & OrderingCheck<Row, Options>`, so `Options`
 * is inferred from the call as written.
 */
export type OrderingCheck<Row, Options> = Options extends { readonly ordering?: infer Ordering }
  ? { readonly ordering?: CheckedOrdering<Row, Ordering> }
  : unknown;

const DOUBLE_UNDERSCORE =
  'Cursor pagination does not support double underscore lookups for orderings. Orderings should be an ' +
  'unchanging, unique or nearly-unique field on the model, such as "-created" or "pk".';

/**
 * Parses `'-created'` or `['-created', { field: 'id', direction: 'asc' }]` into terms.
 *
 * @example
 * parseOrdering('-created') // [{ field: 'created', direction: 'desc' }]
 */
export function parseOrdering(input: OrderingInput): OrderTerm[] {
  const items = typeof input === 'string' ? [input] : Array.isArray(input) ? input : null;
  if (items === null) {
    throw new ConfigurationError(`Invalid ordering. Expected string or tuple, but got ${typeof input}`);
  }
  return items.map((item) => {
    const term =
      typeof item === 'string'
        ? item.startsWith('-')
          ? { field: item.slice(1), direction: 'desc' as const }
          : { field: item, direction: 'asc' as const }
        : item;
    if (typeof term.field !== 'string' || term.field === '') {
      throw new ConfigurationError(`Invalid ordering term: ${JSON.stringify(item)}`);
    }
    if (term.field.includes('__')) throw new ConfigurationError(DOUBLE_UNDERSCORE);
    if (term.direction !== 'asc' && term.direction !== 'desc') {
      throw new ConfigurationError(`Invalid ordering direction: ${JSON.stringify(term.direction)}`);
    }
    if (term.nulls !== undefined && term.nulls !== 'first' && term.nulls !== 'last') {
      throw new ConfigurationError(`Invalid nulls placement: ${JSON.stringify(term.nulls)}`);
    }
    return term;
  });
}

/** Settles NULL placement with Postgres's rule: NULL is above every value. */
export function settleNulls(term: OrderTerm): KeyTerm {
  return {
    field: term.field,
    direction: term.direction,
    nulls: term.nulls ?? (term.direction === 'asc' ? 'last' : 'first'),
  };
}

/** The exact reverse of an ordering: every direction and NULL placement flipped. */
export function invertOrdering(terms: readonly KeyTerm[]): KeyTerm[] {
  return terms.map((term) => ({
    ...term,
    direction: term.direction === 'asc' ? 'desc' : 'asc',
    nulls: term.nulls === 'first' ? 'last' : 'first',
  }));
}

/** The default ordering of cursor pages, for a query with none of its own: DRF's `'-created'`. */
export const DEFAULT_CURSOR_ORDERING = '-created';

/** What the key order of a query needs from it: its own ordering and its unique key. */
interface KeyedQuery {
  readonly ordering: readonly OrderTerm[];
  readonly uniqueKey: string | null;
  readonly uniqueKeys?: readonly string[] | undefined;
}

/**
 * The columns of a query's unique key, in key order: `uniqueKeys` where the adapter offers a
 * composite key, else `uniqueKey` alone, else none.
 *
 * @example
 * uniqueKeyColumns({ uniqueKey: null, uniqueKeys: ['tenant_id', 'id'] }) // ['tenant_id', 'id']
 * uniqueKeyColumns({ uniqueKey: 'id' }) // ['id']
 */
export function uniqueKeyColumns(query: Pick<KeyedQuery, 'uniqueKey' | 'uniqueKeys'>): readonly string[] {
  const keys = query.uniqueKeys;
  if (keys !== undefined && keys.length > 0) return keys;
  return query.uniqueKey === null ? [] : [query.uniqueKey];
}

/**
 * The ordering positions are taken over: the terms with NULL placement settled, plus the query's
 * unique key as the tiebreaker when they lack it (each column of a composite key they lack, in
 * key order). The key is the same term however it was written
 * (`'-created'` or `['-created', '-id']`): marked unique, its NULL placement that of a column with
 * no NULL, so both spellings key the same cursors.
 *
 * @example
 * keyOrder([{ field: 'created', direction: 'desc' }], query)
 * // [created desc nulls first, id desc nulls last (unique)]
 */
export function keyOrder(
  terms: readonly OrderTerm[],
  query: Pick<KeyedQuery, 'uniqueKey' | 'uniqueKeys'>,
): KeyTerm[] {
  const keys = uniqueKeyColumns(query);
  const order = terms.map(
    (term): KeyTerm =>
      keys.includes(term.field)
        ? { field: term.field, direction: term.direction, nulls: 'last', unique: true }
        : settleNulls(term),
  );
  // Every column of a composite key, in key order, each in the direction the last term has.
  for (const key of keys) {
    if (!order.some((term) => term.field === key)) {
      order.push({ field: key, direction: order.at(-1)?.direction ?? 'asc', nulls: 'last', unique: true });
    }
  }
  return order;
}

/**
 * The key order of a page: `ordering` (field names with an optional `-`, or terms), else the
 * query's own ordering, else DRF's `'-created'`; the unique key appended as the tiebreaker.
 */
export function resolveKeyOrder(query: KeyedQuery, ordering: OrderingInput | null | undefined): KeyTerm[] {
  const terms =
    ordering !== undefined && ordering !== null
      ? parseOrdering(ordering)
      : query.ordering.length > 0
        ? query.ordering
        : parseOrdering(DEFAULT_CURSOR_ORDERING);
  return keyOrder(terms, query);
}

/**
 * `error` as a page answers it: when no ordering was given anywhere (no `ordering`, no order of
 * the query's own) and the adapter refused DRF's default `'-created'` (a field these rows lack),
 * a `ConfigurationError` saying that no ordering was given and how to give one, the adapter's
 * error as its `cause`; any other error as it is.
 *
 * @example
 * try { await query.fetch(spec) } catch (error) { throw withoutOrdering(error, query, options.ordering) }
 */
export function withoutOrdering(
  error: unknown,
  query: KeyedQuery,
  ordering: OrderingInput | null | undefined,
): unknown {
  if (ordering !== undefined && ordering !== null) return error;
  if (query.ordering.length > 0 || !hasErrorKind(error, 'ConfigurationError')) return error;
  const defaulted = DEFAULT_CURSOR_ORDERING.slice(1);
  if (!(error as Error).message.includes(`"${defaulted}"`)) return error;
  const key = uniqueKeyColumns(query)[0] ?? 'id';
  const explained = new ConfigurationError(
    `No ordering was given, and DRF's default '${DEFAULT_CURSOR_ORDERING}' is no field of these rows. ` +
      `Give one: { ordering: '-${key}' } in the options, or .orderBy('${key}') on the query.`,
  );
  (explained as { cause?: unknown }).cause = error;
  return explained;
}

/** An ordering frozen, terms and all: adapters recognise an ordering they planned without writing it out. */
function frozen(order: KeyTerm[]): readonly KeyTerm[] {
  for (const term of order) Object.freeze(term);
  return Object.freeze(order);
}

/**
 * Whether `ordering` is already what `keyOrders` makes of it for the unique key `keys`: a frozen
 * array of frozen terms with NULL placement settled, every key column present and marked unique
 * (NULLs last), no other term marked. Keying such an ordering again gives equal terms, so it is its own key order.
 */
function isFrozenKeyOrder(ordering: OrderingInput, keys: readonly string[]): ordering is readonly KeyTerm[] {
  if (!Array.isArray(ordering) || !Object.isFrozen(ordering)) return false;
  let keyed = 0;
  for (let i = 0; i < ordering.length; i += 1) {
    const term: unknown = ordering[i];
    if (typeof term !== 'object' || term === null || !Object.isFrozen(term)) return false;
    const { field, direction, nulls, unique } = term as Partial<KeyTerm>;
    if (typeof field !== 'string' || field === '' || field.includes('__')) return false;
    if (direction !== 'asc' && direction !== 'desc') return false;
    if (keys.includes(field)) {
      if (nulls !== 'last' || unique !== true) return false;
      keyed += 1;
    } else if ((nulls !== 'first' && nulls !== 'last') || unique !== undefined) return false;
  }
  // Each key column once (a field twice in one ordering is no key order).
  return keyed === keys.length;
}

/**
 * `invertOrdering(order)`, frozen as `frozenKeyOrder` freezes: the order of a `previous` page.
 *
 * @example
 * const reversed = frozenReverse(frozenKeyOrder(query, '-created'));
 */
export function frozenReverse(order: readonly KeyTerm[]): readonly KeyTerm[] {
  return frozen(invertOrdering(order));
}

/**
 * `resolveKeyOrder`, frozen: adapters may recognise it as they recognise an ordering they planned.
 * An ordering that is a frozen key order already (the `order` of an earlier page, which
 * `CursorPagination` hands back on its next page) is answered as it is, keyed and frozen once.
 *
 * @example
 * const order = frozenKeyOrder(query, '-created');
 * frozenKeyOrder(query, order) === order; // true
 */
export function frozenKeyOrder(
  query: KeyedQuery,
  ordering: OrderingInput | null | undefined,
): readonly KeyTerm[] {
  if (ordering !== undefined && ordering !== null && isFrozenKeyOrder(ordering, uniqueKeyColumns(query))) {
    return ordering;
  }
  return frozen(resolveKeyOrder(query, ordering));
}
