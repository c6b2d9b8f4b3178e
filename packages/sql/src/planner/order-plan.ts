import type { KeyTerm } from '@pagewise/core';
import {
  columnInfo,
  integersExact,
  plainTables,
  readCatalog,
  readIndexes,
  textCast,
  textInPlace,
  textRecorded,
} from '../catalog/catalog-reads.js';
import { keyColumnsOf } from '../catalog/key-columns.js';
import { uniqueKeyRefusal } from '../catalog/key-coverage.js';
import { orderingIndex } from '../catalog/ordering-index.js';
import type { SqlSession } from '../catalog/session.js';
import { catalogKey, type QueryTables } from '../catalog/source-tables.js';
import { uniqueIndexes } from '../catalog/unique-indexes.js';
import { type PositionReader, positionReader } from '../codec/column-codec.js';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import { identifier, type SqlPart } from '../fragment/fragment.js';
import { exactKey, positionKey } from '../keyset/private-columns.js';
import type { Segment } from '../keyset/segments.js';
import { PrivateColumnStripper } from './row-stripper.js';

// The ORM-free planning of an ordering over one query: for each field, its column (from the
// declared columns or the catalog), how its position is read (the row's value, a private column
// selected for it, the text the driver recorded) and bound; for the whole, the index statements
// name, whether the key order is unique, and the caches its statements are kept in.

/** How the adapter reads and compares one ordering field. */
export interface FieldPlan {
  /** The ordering term's field, as messages name it. */
  readonly field: string;
  /** The field's expression in the query (an ORM node, `node(...)`). */
  readonly expr: SqlPart;
  /** The column the field names, `undefined` for an expression. */
  readonly column: string | undefined;
  /** Row property holding the raw value (the field, or a private alias the adapter selected). */
  readonly readKey: string;
  /** What the adapter selects as `readKey`, when rows do not carry the position as it is. */
  readonly select: SqlPart | null;
  /**
   * A private column with the exact text of integers the driver rounds (`exactIntegerText`),
   * selected only by a page that holds a rounded one.
   */
  readonly exact: { readonly key: string; readonly expr: SqlPart } | null;
  /** The position is read from the text the driver recorded on the value (`recordedText`). */
  readonly recorded: boolean;
  /** The position is read from the database's text of the value, selected as `select` (`castText`). */
  readonly text: boolean;
  /**
   * With `text`: the position's own expression (`positionExpression`), selected instead by a page
   * whose text did not read (a session `DateStyle` changed since the probe), read as it reads.
   */
  readonly fallback: SqlPart | null;
  /**
   * With `text`: the text is selected in place of the query's own column (`TextInPlace`: `select`
   * under `readKey`, the row key, and `expr` the column qualified by its table), and rows get back
   * what the driver answers for it (`castText.inPlace.parse`).
   */
  readonly inPlace: boolean;
  readonly info: ColumnInfo;
}

/** The index a plan's keyset statements name (`FORCE INDEX`). */
export interface IndexHint {
  readonly index: string;
  /** The table, as the index catalog keys it (`schema.table`). */
  readonly table: string;
  /** `schema.table index`, as `CatalogCache.goneIndexes` holds it once the index is gone. */
  readonly key: string;
}

/**
 * How one ordering is read and split into segments on one query shape; `Template` is what the
 * adapter compiles a statement into (Kysely: its compiled query).
 */
export interface OrderPlan<Template = unknown> {
  readonly fields: readonly FieldPlan[];
  /** The first field whose type no cursor can bound exactly (`unsupported`), or -1. */
  readonly refused: number;
  /**
   * Why the unique key cannot tell every two rows apart in this ordering (`uniqueKeyRefusal`: no
   * primary key or unique index covers it), the message keyset windows are refused with; `null`
   * when one does or the catalog cannot know.
   */
  readonly notUnique: string | null;
  readonly nullable: readonly boolean[];
  readonly exprs: readonly SqlPart[];
  /** The index keyset statements name (`indexQuery`); `null` to leave them to the optimizer. */
  readonly indexHint: IndexHint | null;
  /**
   * The dialect's capabilities as this plan's statements use them: `rowValueLeadingBound` off
   * where every table of the query is an ordinary one (`plainTables`).
   */
  readonly capabilities: DialectCapabilities;
  /** Whether a position is read from recorded text (`FieldPlan.recorded`). */
  readonly recorded: boolean;
  /** Whether rows carry private columns to strip (besides the exact text of rounded integers). */
  readonly added: boolean;
  /** Row keys of the fields whose text is selected in place of the column (`FieldPlan.inPlace`). */
  readonly inPlace: readonly string[];
  /**
   * Whether positions can tie (no term is unique: DRF's offset scheme), so rows carry the tie
   * groups the database ranks them in (`KeysetStatement.tieGroups`).
   */
  readonly ties: boolean;
  /** Row keys of the integer fields whose values the driver may round (see `FieldPlan.exact`). */
  readonly exactFields: readonly string[];
  /**
   * Whether segments are split at ties and read as arms of one statement (`mergedSegments`,
   * and a query without set operations of its own).
   */
  readonly merged: boolean;
  /** The terms as a compound's ORDER BY names them: the selected expression, or the private alias. */
  readonly keys: readonly SqlPart[];
  /** The statements of a window per pattern of NULL bound values: each a run of segments. */
  readonly segments: Map<string, Segment[][]>;
  /** The window statements of this plan: keyset ones by NULL pattern, offset, exact text, written LIMIT and segment; offset ones by `o|`. */
  readonly windows: Map<string, Template>;
  /** The LIMITs keyset statements write as numbers (`literalLimit`), at most `MAX_WRITTEN_LIMITS`. */
  readonly writtenLimits: Set<number>;
  /** Copies rows without the private columns (`added`, or integers' exact text). */
  readonly stripper: PrivateColumnStripper;
  /** Reads a row's position, all its fields in one call (`positionReader` of `fields`). */
  readonly readPosition: PositionReader;
  /** Where a field reads the database's text (`FieldPlan.text`): the reader of rows read with the fallbacks. */
  readonly readFallback: PositionReader | null;
}

/**
 * What the query's clauses say, as far as planning cares; read from the ORM's tree once, when a
 * plan is first made.
 */
export interface QueryClauses {
  /** `SELECT DISTINCT`. */
  readonly distinct: boolean;
  /** Postgres's `DISTINCT ON (...)`. */
  readonly distinctOn: boolean;
  readonly joins: boolean;
  readonly groupBy: boolean;
  readonly having: boolean;
  /** `UNION`, `INTERSECT`, `EXCEPT` of its own. */
  readonly setOperations: boolean;
  /**
   * The columns the WHERE fixes when it is nothing but an AND of equalities between a column and
   * a value (`tenant = ?`, `deleted_at is null`): `[]` without a WHERE, `undefined` for any other.
   */
  readonly equalityColumns: readonly string[] | undefined;
  /** The columns the WHERE fixes by equality whatever else it says (`tenant` in `tenant = ? and score > ?`). */
  readonly fixedColumns: readonly string[];
}

/** A field of the query as its ORM has it. */
export interface FieldSource {
  /** Its expression: the selection's own, or a reference to the column (`node(...)`). */
  readonly expr: SqlPart;
  /** Whether rows already carry it under the field's row key. */
  readonly selected: boolean;
  /** The column it names, `undefined` for an expression. */
  readonly column: string | undefined;
  /** The table it is qualified by (`articles` of `articles.id`), if any. */
  readonly qualifier: string | undefined;
  /**
   * The column, qualified by its table (`"articles"."created"`), where the query's one selection
   * of it is the column as it is, under the row key, and the adapter can select another
   * expression in its place (`KeysetStatement.replaced`). Statements then name the column
   * qualified, so no ORDER BY takes the result's column of that name for it.
   * @default undefined: never replaced
   */
  readonly replaceable?: SqlPart | undefined;
}

/** What the planner reads of one query, from its ORM: each read once, when first needed. */
export interface PlanSource {
  /** The tables it reads from. */
  tables(): QueryTables;
  clauses(): QueryClauses;
  field(field: string): FieldSource;
  /** The row property of `field` (`'articles.id'` -> `'id'`). */
  rowKey(field: string): string;
  /**
   * Whether the ORM renames the rows' columns from the tree's (Kysely's CamelCasePlugin: fields
   * name `createdAt`, the tree `created_at`). Positions are then read from private columns, which
   * no renaming touches, and plans are keyed by the tree's names too (`treeField`). @default false
   */
  readonly renamed?: boolean;
  /** `field` as the tree names it, where `renamed`. @default the field itself */
  treeField?(field: string): string;
}

/**
 * The plan of `order` over the query `source` describes, in the database of `session`: catalog
 * reads and driver probes at most once per database, nothing per page. Keep the plan per query
 * shape, ordering and `session.planKey` (`planFor` does).
 *
 * @example
 * const plan = await planOrder(session, source, [{ field: 'created', direction: 'desc', nulls: 'first' }, idTerm]);
 * plan.fields[0].info // { kind: 'timestamp-text', nullable: false, type: 'timestamp with time zone' }
 */
export async function planOrder<Template>(
  session: SqlSession,
  source: PlanSource,
  order: readonly KeyTerm[],
): Promise<OrderPlan<Template>> {
  const capabilities = session.capabilities;
  const keys = keyColumnsOf(session);
  // Without a unique term positions can tie, and only the database knows which do.
  const ties = !holdsKey(order, keys);
  const fields = await Promise.all(
    order.map(async (term, i): Promise<FieldPlan> => {
      const found = source.field(term.field);
      const { selected, column, qualifier, replaceable } = found;
      let expr = found.expr;
      const unique = term.unique === true || keys.includes(term.field);
      const info = await columnInfo(
        session,
        source.tables(),
        term.field,
        { column, qualifier },
        unique,
        term.unique === true,
      );
      // Positions the driver's recorded text gives need no column of their own.
      const recorded = capabilities.recordedText?.reads(info) === true && (await textRecorded(session));
      // Else the database's own text, where it is exact and cheaper than the position's expression.
      const cast = capabilities.castText;
      const text = !recorded && !ties && cast?.reads(info) === true && (await textCast(session));
      // The text in place of the query's own column, where the driver gives back for it what
      // rows would have held (a column beside it costs the statement about 6%).
      const candidate =
        text &&
        replaceable !== undefined &&
        source.renamed !== true &&
        inPlaceClauses(source.clauses()) &&
        (await textInPlace(session)).includes(cast!.inPlace?.probedType(info) ?? '');
      if (candidate) expr = replaceable;
      const expression = recorded
        ? null
        : (capabilities.positionExpression(expr, info) ??
          (info.kind === 'timestamp-text' && capabilities.exactTimestampText
            ? capabilities.exactTimestampText(expr, info.type ?? '')
            : null));
      // A page whose text does not read is read again with the column as it is and the fallback.
      const inPlace = candidate && expression !== null;
      const position = text ? cast!.expression(expr) : expression;
      const integer = info.kind === 'integer' || info.kind === 'bigint' || info.kind === 'number';
      const exactText = capabilities.exactIntegerText;
      const exact =
        integer && exactText !== null && !(await integersExact(session))
          ? { key: exactKey(i), expr: exactText(expr) }
          : null;
      // Rows a renaming ORM read name their columns as it chose: positions come from columns of
      // the adapter's own, which no renaming touches.
      const own = selected && position === null && source.renamed !== true;
      return {
        field: term.field,
        expr,
        column,
        readKey: own || inPlace ? source.rowKey(term.field) : positionKey(i),
        select: own ? null : (position ?? expr),
        exact,
        recorded,
        text,
        fallback: text ? expression : null,
        inPlace,
        info,
      };
    }),
  );
  const clauses = source.clauses();
  return {
    fields,
    indexHint: await indexHint(session, source, order, fields),
    capabilities:
      capabilities.rowValueLeadingBound && (await plainTables(session, source.tables()))
        ? { ...capabilities, rowValueLeadingBound: false }
        : capabilities,
    // A compound orders by its result's columns: a private column holding another expression
    // than the term's (an exact text) would order differently.
    merged:
      capabilities.mergedSegments &&
      !clauses.setOperations &&
      fields.every((f) => f.select === null || f.select === f.expr),
    keys: fields.map((f) => (f.select === null ? f.expr : identifier(f.readKey))),
    refused: fields.findIndex((f) => f.info.kind === 'unsupported'),
    notUnique: await notUnique(session, source, order, fields),
    nullable: fields.map((f) => f.info.nullable),
    exprs: fields.map((f) => f.expr),
    added: fields.some((f) => f.select !== null && !f.inPlace),
    inPlace: fields.flatMap((f) => (f.inPlace ? [f.readKey] : [])),
    ties,
    recorded: fields.some((f) => f.recorded),
    exactFields: fields.flatMap((f) => (f.exact === null ? [] : [f.readKey])),
    segments: new Map(),
    windows: new Map(),
    writtenLimits: new Set(),
    stripper: new PrivateColumnStripper(),
    readPosition: positionReader(fields, session.adapter.name),
    // The fallback is always a column of its own, the query's own column selected as it is.
    readFallback: fields.some((f) => f.text)
      ? positionReader(
          fields.map((f, i) => (f.text ? { ...f, text: false, readKey: positionKey(i) } : f)),
          session.adapter.name,
        )
      : null,
  };
}

/**
 * Whether a query's selection may hold another expression in place of a column: without DISTINCT,
 * GROUP BY or set operations, where the selection decides which rows there are.
 */
function inPlaceClauses(clauses: QueryClauses): boolean {
  return !(
    clauses.distinct ||
    clauses.distinctOn ||
    clauses.groupBy ||
    clauses.having ||
    clauses.setOperations
  );
}

/**
 * Whether `order` holds the unique key `keys`: a term marked unique, or one naming it; every
 * column of a composite key.
 */
function holdsKey(order: readonly KeyTerm[], keys: readonly string[]): boolean {
  if (keys.length > 1) return keys.every((key) => order.some((term) => term.field === key));
  return order.some((term) => term.unique === true || term.field === keys[0]);
}

/**
 * Why the unique key does not make `order` unique per row (`uniqueKeyRefusal`), from the
 * catalog its fields were looked up in: for a query of one table, without DISTINCT, GROUP BY or
 * set operations, ordered by columns of that table none of which `columns` declares. `null`
 * when a primary key or unique index covers it, when the order has no unique term (DRF's
 * position cursors), and whenever the catalog cannot know: a view, a foreign table, a join (any
 * key may repeat in one), an expression, a column declared in `columns` (taken as given).
 */
async function notUnique(
  session: SqlSession,
  source: PlanSource,
  order: readonly KeyTerm[],
  fields: readonly FieldPlan[],
): Promise<string | null> {
  const keys = keyColumnsOf(session);
  if (keys.length === 0 || !holdsKey(order, keys)) return null;
  const clauses = source.clauses();
  const grouped =
    clauses.joins || clauses.groupBy || clauses.having || clauses.setOperations || clauses.distinctOn;
  const { tables, complete } = source.tables();
  if (clauses.distinct || grouped || !complete || tables.length !== 1) return null;
  const columns: string[] = [];
  for (const field of fields) {
    if (field.column === undefined || Object.hasOwn(session.columns, field.field)) return null;
    columns.push(field.column);
  }
  // Read already: each field's kind came from it.
  const catalog = await readCatalog(session, tables[0]!);
  const indexes = uniqueIndexes(catalog);
  if (indexes === undefined) return null;
  const table = tables[0]!.name;
  return (
    uniqueKeyRefusal({
      adapter: session.adapter,
      uniqueKey: keys.length === 1 ? keys[0]! : keys,
      table,
      columns,
      fixed: clauses.fixedColumns,
      catalog,
      indexes,
    }) ?? null
  );
}

/**
 * The index keyset statements name (`indexQuery`), for an ordering over plain columns of the
 * query's one table, without JOIN, GROUP BY or set operation: with no WHERE, the index whose
 * columns are the ordering's (the bound and the ORDER BY are the whole statement: MariaDB
 * would find it too, after weighing every index the bound could use, several times the time
 * it then takes to plan the named one); with a WHERE of equalities only (`tenant = ?`), the
 * index that begins with those columns and goes on with the ordering's. Any other WHERE may
 * be served better by another index: `null` leaves the statements to the optimizer.
 */
async function indexHint(
  session: SqlSession,
  source: PlanSource,
  order: readonly KeyTerm[],
  fields: readonly FieldPlan[],
): Promise<IndexHint | null> {
  if (session.capabilities.indexQuery === null) return null;
  const clauses = source.clauses();
  const { tables, complete } = source.tables();
  const grouped = clauses.joins || clauses.groupBy || clauses.having || clauses.setOperations;
  if (!complete || tables.length !== 1 || grouped) return null;
  const fixed = clauses.equalityColumns;
  if (fixed === undefined) return null;
  const columns: string[] = [];
  for (const field of fields) {
    if (field.column === undefined) return null;
    columns.push(field.column);
  }
  const descending = order.map((term) => term.direction === 'desc');
  const index = orderingIndex(await readIndexes(session, tables[0]!), columns, descending, fixed);
  if (index === undefined) return null;
  const table = catalogKey(tables[0]!);
  return { index, table, key: `${table} ${index}` };
}
