import { Slot } from './slot.js';

// Pagewise's own small SQL fragment type: what the dialect knowledge is written in, and what each
// ORM adapter lowers into its builder's nodes (Kysely: `RawNode`, `IdentifierNode`, `ValueNode`;
// Drizzle: `sql`, `sql.identifier`, params and `sql.placeholder`). A fragment is SQL text with parts
// between its pieces, as Kysely's `RawNode` and Drizzle's `SQL` chunks are: `strings` has one more
// entry than `parts`. All text is Pagewise's own; a client's value is only ever a `value` or a slot.

/**
 * SQL text with parts between its pieces: `strings[0] parts[0] strings[1] ... strings[n]`.
 * @example
 * sql`cast(${node(column)} as text)` // { kind: 'fragment', strings: ['cast(', ' as text)'], parts: [column] }
 */
export interface SqlFragment {
  readonly kind: 'fragment';
  readonly strings: readonly string[];
  readonly parts: readonly SqlPart[];
}

/** A quoted name, qualified when it has several parts (`"schema"."table"`). */
export interface SqlIdentifier {
  readonly kind: 'identifier';
  readonly names: readonly string[];
}

/** A bound parameter. */
export interface SqlValue {
  readonly kind: 'value';
  readonly value: unknown;
}

/** A constant of Pagewise's own code written into the SQL text (`'YYYY-MM-DD'`, `51`), never a client's value. */
export interface SqlLiteral {
  readonly kind: 'literal';
  readonly value: string | number;
}

/**
 * An expression of the ORM's own (a column of the user's query, a selected expression), passed
 * through as it is: the adapter that put it there lowers it as itself.
 */
export interface SqlNode {
  readonly kind: 'node';
  readonly node: unknown;
}

/** One part of a fragment. */
export type SqlPart = SqlFragment | SqlIdentifier | SqlValue | SqlLiteral | SqlNode | Slot;

const EMPTY: readonly SqlPart[] = Object.freeze([]);

/** Whether `value` is already a part (kept as it is by `sql`) rather than a value to bind. */
export function isSqlPart(value: unknown): value is SqlPart {
  if (value instanceof Slot) return true;
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (
    kind === 'fragment' || kind === 'identifier' || kind === 'value' || kind === 'literal' || kind === 'node'
  );
}

/**
 * A fragment from a template: parts stay parts, any other interpolated value is bound.
 *
 * @example
 * sql`${node(column)} = ${7}` // "id" = $1, [7]
 */
export function sql(strings: TemplateStringsArray | readonly string[], ...parts: unknown[]): SqlFragment {
  return {
    kind: 'fragment',
    strings: [...strings],
    parts: parts.map((part) => (isSqlPart(part) ? part : value(part))),
  };
}

/**
 * SQL text as it is: only ever Pagewise's own text (a keyword, an operator, a type name).
 * @example
 * raw('desc')
 */
export function raw(text: string): SqlFragment {
  return { kind: 'fragment', strings: [text], parts: EMPTY };
}

/**
 * A quoted identifier; several names are qualified (`identifier('public', 'items')`: `"public"."items"`).
 * @example
 * identifier('pagewise0')
 */
export function identifier(...names: string[]): SqlIdentifier {
  return { kind: 'identifier', names };
}

/**
 * A bound parameter.
 * @example
 * value('items')
 */
export function value(bound: unknown): SqlValue {
  return { kind: 'value', value: bound };
}

/**
 * A constant written into the text: strings quoted (`'...'`, quotes doubled), numbers as they are.
 * @example
 * literal('YYYY-MM-DD HH24:MI:SS.US BC')
 */
export function literal(constant: string | number): SqlLiteral {
  return { kind: 'literal', value: constant };
}

/**
 * An expression of the ORM's own, lowered by the adapter as itself.
 * @example
 * node(ReferenceNode.create(ColumnNode.create('created')))
 */
export function node(expression: unknown): SqlNode {
  return { kind: 'node', node: expression };
}

/**
 * `parts` with `separator` text between them.
 * @example
 * join([identifier('a'), identifier('b')]) // "a", "b"
 */
export function join(parts: readonly SqlPart[], separator = ', '): SqlFragment {
  if (parts.length === 0) return raw('');
  return { kind: 'fragment', strings: ['', ...parts.slice(1).map(() => separator), ''], parts: [...parts] };
}

/**
 * `cast(<column> as <type>)`, `type` Pagewise's own text: for drivers that would answer a rounded
 * or parsed value, and for bounds the column compares with exactly.
 * @example
 * cast(node(column), 'char') // cast(`created` as char)
 */
export function cast(column: SqlPart, type: string): SqlFragment {
  return sql`cast(${column} as ${raw(type)})`;
}
