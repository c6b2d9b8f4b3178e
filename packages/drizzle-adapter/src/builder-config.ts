import { ConfigurationError, type OrderTerm } from '@pagewise/core';
import type { QueryClauses, QueryTables, SourceTable } from '@pagewise/sql';
import {
  Column,
  getTableName,
  is,
  Param,
  Placeholder,
  SQL,
  StringChunk,
  Subquery,
  Table,
  View,
} from 'drizzle-orm';

// What the adapter reads of a Drizzle select builder: its config (table, fields, where, orderBy,
// limit, offset, joins, ...), the tables it reads, what its clauses say, the fields behind the
// result keys and its own ordering as result-key terms. Drizzle objects are recognised with its
// `is()`, so two installed copies of drizzle-orm still work. Nothing here changes the builder.

/** The parts of a Drizzle select's config the adapter reads and rebuilds statements from. */
export interface SelectConfig {
  readonly withList?: readonly unknown[] | undefined;
  readonly table: unknown;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly where?: SQL | undefined;
  readonly having?: SQL | undefined;
  readonly joins?: ReadonlyArray<{
    readonly table: unknown;
    readonly alias?: string;
    readonly joinType?: string;
  }>;
  readonly orderBy?: readonly unknown[];
  readonly groupBy?: readonly unknown[];
  readonly limit?: unknown;
  readonly offset?: unknown;
  readonly distinct?: boolean | { readonly on: readonly unknown[] };
  readonly setOperators?: readonly unknown[];
  readonly lockingClause?: unknown;
}

/** A Drizzle dialect (`PgDialect`, `MySqlDialect`, `SQLiteSyncDialect`...), as the adapter uses it. */
export interface DialectLike {
  buildSelectQuery(config: Record<string, unknown>): SQL;
  buildWithCTE?(queries: readonly unknown[] | undefined): SQL | undefined;
  sqlToQuery(sql: SQL): { sql: string; params: unknown[] };
  readonly casing: { getColumnCasing(column: Column): string };
}

/** A select builder's own parts (Drizzle keeps them on the builder, not in its public type). */
export interface BuilderParts {
  readonly config: SelectConfig;
  readonly dialect: DialectLike;
  readonly joinsNotNullableMap: Record<string, boolean> | undefined;
}

const ORIGINAL_NAME = Symbol.for('drizzle:OriginalName');
const SCHEMA = Symbol.for('drizzle:Schema');
const COLUMNS = Symbol.for('drizzle:Columns');

/** The builder's parts, its config copied: Drizzle builders change in place, and the caller's never does here. */
export function builderParts(builder: unknown): BuilderParts {
  const parts = builder as Partial<BuilderParts> | null;
  if (
    parts === null ||
    typeof parts !== 'object' ||
    parts.config === undefined ||
    parts.dialect === undefined
  ) {
    throw new ConfigurationError(
      'drizzle adapter: fromDrizzle takes a Drizzle select builder (db.select().from(table)...)',
    );
  }
  const config = parts.config;
  return {
    config: Object.freeze({
      ...config,
      fields: { ...config.fields },
      ...(config.orderBy ? { orderBy: [...config.orderBy] } : {}),
      ...(config.joins ? { joins: [...config.joins] } : {}),
      setOperators: [...(config.setOperators ?? [])],
    }),
    dialect: parts.dialect,
    joinsNotNullableMap: parts.joinsNotNullableMap ? { ...parts.joinsNotNullableMap } : undefined,
  };
}

/** The columns of a table (its TypeScript keys), `undefined` for anything else. */
export function tableColumns(table: unknown): Readonly<Record<string, Column>> | undefined {
  return is(table, Table)
    ? ((table as unknown as Record<symbol, Record<string, Column>>)[COLUMNS] ?? {})
    : undefined;
}

/** A selection entry: a column, an expression (`sql`), an aliased expression, or nested fields. */
export function isField(value: unknown): boolean {
  return is(value, Column) || is(value, SQL) || is(value, SQL.Aliased) || is(value, Subquery);
}

/** The selection flattened in order, as Drizzle maps array rows back to objects by it. */
export function orderedFields(
  fields: Readonly<Record<string, unknown>>,
  prefix: readonly string[] = [],
): Array<{ path: string[]; field: unknown }> {
  const ordered: Array<{ path: string[]; field: unknown }> = [];
  for (const [name, field] of Object.entries(fields)) {
    const path = [...prefix, name];
    if (isField(field)) ordered.push({ path, field });
    else if (is(field, Table)) ordered.push(...orderedFields(tableColumns(field) ?? {}, path));
    else if (field !== null && typeof field === 'object')
      ordered.push(...orderedFields(field as Record<string, unknown>, path));
  }
  return ordered;
}

/** The selection entry of a result key (`createdAt`, or `posts.createdAt` in a nested selection). */
export function selectionAt(fields: Readonly<Record<string, unknown>>, key: string): unknown {
  if (Object.hasOwn(fields, key)) return fields[key];
  const dot = key.indexOf('.');
  if (dot <= 0) return undefined;
  const head = fields[key.slice(0, dot)];
  if (head === null || typeof head !== 'object' || isField(head)) return undefined;
  const nested = is(head, Table) ? (tableColumns(head) ?? {}) : (head as Record<string, unknown>);
  return selectionAt(nested, key.slice(dot + 1));
}

/** Whether two columns are one: the same object, or the same column of the same table (alias) name. */
function sameColumn(a: Column, b: Column): boolean {
  return a === b || (a.name === b.name && getTableName(a.table) === getTableName(b.table));
}

/** The result key the selection holds `column` under, `undefined` when it does not select it. */
export function resultKeyOf(fields: Readonly<Record<string, unknown>>, column: Column): string | undefined {
  for (const { path, field } of orderedFields(fields)) {
    if (is(field, Column) && sameColumn(field, column)) return path.join('.');
  }
  return undefined;
}

/** How messages name a column: `"posts"."created_at"`. */
export function columnLabel(column: Column): string {
  return `"${getTableName(column.table)}"."${column.name}"`;
}

/** The table a FROM or JOIN item is, as `@pagewise/sql` reads it; `undefined` for a subquery, a view or SQL. */
function sourceTable(table: unknown): SourceTable | undefined {
  if (!is(table, Table)) return undefined;
  const record = table as unknown as Record<symbol, string | undefined>;
  const alias = getTableName(table);
  return { name: record[ORIGINAL_NAME] ?? alias, schema: record[SCHEMA], alias };
}

/** The tables the select reads; `complete` when every source is a table and there is no WITH. */
export function queryTables(config: SelectConfig): QueryTables {
  const sources = [config.table, ...(config.joins ?? []).map((join) => join.table)];
  const tables: SourceTable[] = [];
  for (const source of sources) {
    const table = sourceTable(source);
    if (table !== undefined) tables.push(table);
  }
  const withList = config.withList ?? [];
  return { tables, complete: tables.length === sources.length && withList.length === 0 };
}

/** How the select is named in messages: `drizzle query on "posts"`. */
export function describe(config: SelectConfig): string {
  const table = config.table;
  if (is(table, Table)) return `drizzle query on "${getTableName(table)}"`;
  if (is(table, View)) return 'drizzle query on a view';
  return 'drizzle query';
}

/** What the clauses of the select say, as the planner reads them. */
export function queryClauses(config: SelectConfig, dialect: DialectLike): QueryClauses {
  const where = config.where;
  const equalities = where === undefined ? [] : equalityColumns(where, dialect);
  return {
    distinct: config.distinct === true,
    distinctOn: typeof config.distinct === 'object' && config.distinct !== null,
    joins: (config.joins?.length ?? 0) > 0,
    groupBy: (config.groupBy?.length ?? 0) > 0,
    having: config.having !== undefined,
    setOperations: (config.setOperators?.length ?? 0) > 0,
    equalityColumns: equalities.every((c) => c !== undefined) ? (equalities as string[]) : undefined,
    fixedColumns: equalities.filter((c): c is string => c !== undefined),
  };
}

/** A piece of a flattened `SQL`: text, a column, or a value. */
export type Atom =
  | { readonly text: string }
  | { readonly column: Column }
  | { readonly value: unknown }
  | { readonly other: unknown };

/** The chunks of `sql`, nested `SQL` flattened, adjacent texts joined. */
export function atoms(chunks: readonly unknown[], out: Atom[] = []): Atom[] {
  for (const chunk of chunks) {
    if (is(chunk, StringChunk)) {
      const text = chunk.value.join('');
      const last = out.at(-1);
      if (last !== undefined && 'text' in last) out[out.length - 1] = { text: last.text + text };
      else out.push({ text });
    } else if (is(chunk, SQL)) atoms(chunk.queryChunks, out);
    else if (is(chunk, Column)) out.push({ column: chunk });
    else if (is(chunk, Param) || is(chunk, Placeholder)) out.push({ value: chunk });
    else if (chunk === null || typeof chunk !== 'object') out.push({ value: chunk });
    else out.push({ other: chunk });
  }
  return out;
}

/**
 * For each condition the WHERE ANDs together (Drizzle's `and(eq(t.a, 1), isNull(t.b))`), the
 * column it fixes by equality with a value, or `undefined` for any other condition.
 */
function equalityColumns(where: SQL, dialect: DialectLike): Array<string | undefined> {
  const conjuncts = splitAnd(trimAtoms(atoms(where.queryChunks)));
  return conjuncts.map((conjunct) => {
    const parts = trimAtoms(conjunct);
    const [a, b, c] = parts;
    if (parts.length === 2 && a && 'column' in a && b && 'text' in b && /^\s*is null\s*$/i.test(b.text)) {
      return dialect.casing.getColumnCasing(a.column);
    }
    if (parts.length !== 3 || !b || !('text' in b) || b.text.trim() !== '=') return undefined;
    if (a && 'column' in a && c && 'value' in c) return dialect.casing.getColumnCasing(a.column);
    if (c && 'column' in c && a && 'value' in a) return dialect.casing.getColumnCasing(c.column);
    return undefined;
  });
}

/** `atoms` without empty texts and without parentheses around the whole. */
function trimAtoms(list: readonly Atom[]): Atom[] {
  let parts = list.filter((atom) => !('text' in atom) || atom.text.trim() !== '');
  for (;;) {
    const first = parts[0];
    const last = parts.at(-1);
    if (!first || !last || !('text' in first) || !('text' in last) || parts.length < 2) return parts;
    const open = first.text.trim();
    const close = last.text.trim();
    if (!open.startsWith('(') || !close.endsWith(')')) return parts;
    const inner: Atom[] = [{ text: open.slice(1) }, ...parts.slice(1, -1), { text: close.slice(0, -1) }];
    if (depthNeverBelowZero(inner))
      parts = inner.filter((atom) => !('text' in atom) || atom.text.trim() !== '');
    else return parts;
  }
}

function depthNeverBelowZero(list: readonly Atom[]): boolean {
  let depth = 0;
  for (const atom of list) {
    if (!('text' in atom)) continue;
    for (const char of atom.text) {
      if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

/** The parts of `list` between its top-level ` and `s. */
function splitAnd(list: readonly Atom[]): Atom[][] {
  const parts: Atom[][] = [[]];
  let depth = 0;
  for (const atom of list) {
    if (!('text' in atom)) {
      parts.at(-1)!.push(atom);
      continue;
    }
    let text = '';
    const source = atom.text;
    for (let i = 0; i < source.length; i += 1) {
      const char = source[i]!;
      if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      if (depth === 0 && /^ and /i.test(source.slice(i, i + 5))) {
        parts.at(-1)!.push({ text });
        parts.push([]);
        text = '';
        i += 4;
        continue;
      }
      text += char;
    }
    parts.at(-1)!.push({ text });
  }
  return parts;
}

/** Text a direction chunk of `asc()`/`desc()` may hold: `desc`, `asc nulls last`... */
const DIRECTION = /^\s*(asc|desc)?\s*(?:nulls\s+(first|last))?\s*$/i;

/**
 * The builder's own ORDER BY as result-key terms (`.orderBy(desc(posts.createdAt), posts.id)`).
 * A `sql` expression, or a column the selection does not hold, is a `ConfigurationError` naming it.
 */
export function orderTermsOf(config: SelectConfig, dialect: DialectLike, description: string): OrderTerm[] {
  return (config.orderBy ?? []).map((item) => {
    let column: Column | undefined;
    let direction: 'asc' | 'desc' = 'asc';
    let nulls: 'first' | 'last' | undefined;
    if (is(item, Column)) column = item;
    else if (is(item, SQL)) {
      const list = atoms(item.queryChunks);
      const columns = list.filter((atom): atom is { column: Column } => 'column' in atom);
      const text = list.map((atom) => ('text' in atom ? atom.text : '')).join('');
      const matched = DIRECTION.exec(text);
      if (columns.length === 1 && list.every((atom) => 'text' in atom || 'column' in atom) && matched) {
        column = columns[0]!.column;
        direction = matched[1]?.toLowerCase() === 'desc' ? 'desc' : 'asc';
        const placed = matched[2]?.toLowerCase();
        if (placed === 'first' || placed === 'last') nulls = placed;
      }
    }
    if (column === undefined) {
      const written = is(item, SQL) ? dialect.sqlToQuery(item).sql : String(item);
      throw new ConfigurationError(
        `drizzle adapter: ${description} is ordered by the sql expression \`${written}\`, which no result ` +
          'key names; select it under a key (db.select({ key: sql`...` })) and order by that key, or order ' +
          'by columns with asc()/desc()',
      );
    }
    const key = resultKeyOf(config.fields, column);
    if (key === undefined) {
      throw new ConfigurationError(
        `drizzle adapter: ${description} is ordered by ${columnLabel(column)}, which its selection does not ` +
          'hold; select the column, or order by a selected one',
      );
    }
    return nulls === undefined ? { field: key, direction } : { field: key, direction, nulls };
  });
}
