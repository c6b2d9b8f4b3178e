import { ConfigurationError, InvalidBoundError, type KeyTerm, type WindowSpec } from '@pagewise/core';
import type { SqlSession } from '../catalog/session.js';
import { refuseUnrecorded, toParameters } from '../codec/column-codec.js';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { Row } from '../dialect/row.js';
import { identifier, type SqlPart } from '../fragment/fragment.js';
import { orderByItems } from '../keyset/order-items.js';
import { type BoundParameter, stopPredicate } from '../keyset/predicates.js';
import { AHEAD_COLUMN, positionKey, TIE_COLUMN } from '../keyset/private-columns.js';
import { groupSegments, planSegments, type Segment } from '../keyset/segments.js';
import {
  type KeysetStatement,
  lookAheadSlots,
  lookAheadValues,
  mergedStatement,
  type PrivateSelection,
  segmentStatement,
} from '../keyset/statement.js';
import type { FieldPlan, OrderPlan, PlanSource } from './order-plan.js';
import { planFor, type ShapePlans } from './plan-cache.js';
import { KeysetRows } from './window-rows.js';

// Reading one keyset window, whatever the ORM: the bound checked against its columns, the window
// split into segments (once per pattern of NULLs), each statement built once (`KeysetStatement`,
// compiled by the adapter) and then only run with new values, the rows read again with integers'
// exact text where the driver rounded one, and returned with their positions read lazily.

/** Runs the adapter's compiled statements: the window's values in their slots, `base` in the base ones. */
export interface StatementRunner<Template> {
  run(template: Template, values: readonly unknown[], base: readonly unknown[]): Promise<Row[]>;
}

/**
 * What the keyset reader needs of the adapter for one query: its tree for a new plan
 * (`PlanSource`), its values, a compiler of new statements and a runner. On a warm page only the
 * runner is called: plans and compiled statements are found in the caches.
 */
export interface KeysetHost<Template> extends PlanSource {
  readonly session: SqlSession;
  /** The query, as messages name it (`kysely query on "articles"`). */
  readonly description: string;
  /** The values of the query's own clauses (its base slots). */
  readonly base: readonly unknown[];
  /** Runs the statements (`SharedState` on Kysely). */
  readonly runner: StatementRunner<Template>;
  /** `statement` over the query's core, compiled once; the reader keeps it in `plan.windows`. */
  compile(statement: KeysetStatement): Template;
}

/** How one keyset window's statements are shaped, beyond its plan: the parts of their cache key. */
interface WindowShape {
  /** The near bound's NULLs (`s`: no bound). */
  readonly mask: string;
  /** The far bound's NULLs (`''`: no far bound). */
  readonly stopMask: string;
  /** Whether rows carry their tie groups (an ordering without a unique term). */
  readonly ties: boolean;
  /** Whether integers the driver rounds are read as exact text too. */
  readonly exact: boolean;
  /** Whether text fields select their fallback (`FieldPlan.fallback`): the database's text did not read. */
  readonly stale: boolean;
}

/**
 * The rows of one keyset window of `order` (strictly after `window.after`, before `window.before`),
 * stripped of the private columns, positions read when asked for. Bound values that do not fit
 * their columns throw `InvalidBoundError`; an ordering the plan refuses (an unsupported type, a key
 * order no unique index covers) a `ConfigurationError`.
 *
 * @example
 * const rows = await readKeysetWindow(host, shape, order, { order, after: [t, 7], offset: 0, limit: 21 });
 * rows.position(0) // [t', 8]
 */
export async function readKeysetWindow<O, Template>(
  host: KeysetHost<Template>,
  plans: ShapePlans<Template>,
  order: readonly KeyTerm[],
  window: WindowSpec,
): Promise<KeysetRows<O>> {
  const adapter = host.session.adapter.name;
  const bound = window.after;
  const stop = window.before ?? null;
  const wrong = bound !== null && bound.length !== order.length ? bound : stop;
  if (wrong !== null && wrong.length !== order.length) {
    throw new InvalidBoundError(adapter, `expected ${order.length} bound values, got ${wrong.length}`);
  }
  const found = planFor(plans, host.session, host, order);
  const plan = found instanceof Promise ? await found : found;
  const { fields, nullable, refused } = plan;
  if (plan.notUnique !== null) throw new ConfigurationError(plan.notUnique);
  if (refused >= 0) {
    const type = fields[refused]!.info.type ?? 'unknown';
    throw new ConfigurationError(
      `${adapter} adapter: cannot page by "${order[refused]!.field}": its type ${type} has no order a cursor can bound exactly. Order by another column, or by an expression the adapter can page (e.g. a cast to text) declared in \`columns\`.`,
    );
  }
  // The plan's dialect, the one its statements compile for: every step of the page uses it.
  const capabilities = plan.capabilities;
  let mask = '';
  let values: unknown[];
  if (bound === null) {
    values = new Array(order.length).fill(null);
    mask = 's'.repeat(order.length);
  } else {
    values = toParameters(fields, bound, capabilities, adapter);
    for (let i = 0; i < order.length; i += 1) mask += (bound[i] ?? null) === null ? '0' : '1';
  }
  // The far bound's values follow the limit and offset slots; its NULLs shape the statement.
  let stopMask = '';
  if (stop !== null) {
    const far = toParameters(fields, stop, capabilities, adapter);
    for (let i = 0; i < order.length; i += 1) {
      stopMask += (stop[i] ?? null) === null ? '0' : '1';
      values[order.length + 2 + i] = far[i];
    }
  }
  let segments = plan.segments.get(mask);
  if (segments === undefined) {
    const planned = planSegments(order, nullable, bound, capabilities, plan.merged);
    segments = groupSegments(planned, order, nullable, capabilities, plan.merged);
    plan.segments.set(mask, segments);
  }
  const ties = plan.ties;
  const shape: WindowShape = { mask, stopMask, ties, exact: false, stale: false };
  let rows = await checked(
    host,
    plan,
    readSegments(host, plan, order, shape, segments, values, window, capabilities),
  );
  // A session whose DateStyle changed since the probe writes no ISO text: its page is read again
  // with the positions' own expressions (`to_char`), which no session setting changes.
  let stale = plan.readFallback !== null && !textsRead(rows, plan.fields, capabilities);
  // The driver rounds integers past 2^53 (better-sqlite3 without safe integers): a page holding
  // one is read again with their exact text, never paged by a rounded position.
  const exact = plan.exactFields.length > 0 && holdsRounded(rows, plan.exactFields);
  if (exact || stale) {
    const again = { ...shape, exact, stale };
    rows = await checked(
      host,
      plan,
      readSegments(host, plan, order, again, segments, values, window, capabilities),
    );
  }
  const inPlace = plan.inPlace.length > 0;
  let visible = plan.added || exact || ties || inPlace ? plan.stripper.strip(rows) : rows;
  // The texts in place of their columns, given back as the driver would have parsed them; a text
  // the parser cannot tell (years 1 BC to 99 AD for pg) has the page read with the columns as they are.
  if (inPlace && !stale && !parsedInPlace(visible, plan.inPlace, capabilities.castText!.inPlace!.parse)) {
    stale = true;
    const again = { ...shape, exact, stale };
    rows = await checked(
      host,
      plan,
      readSegments(host, plan, order, again, segments, values, window, capabilities),
    );
    visible = plan.stripper.strip(rows);
  }
  const read = stale ? plan.readFallback! : plan.readPosition;
  return new KeysetRows(visible as readonly O[], rows, read, exact, capabilities, ties);
}

/**
 * Whether every row's value of the fields read from the database's text (`FieldPlan.text`) is
 * text that reads (`castText`): ISO output, checked by its head (each statement runs in one
 * session, whose DateStyle writes every value alike; the reader still refuses a text that does
 * not read exactly).
 */
function textsRead(
  rows: readonly Row[],
  fields: readonly FieldPlan[],
  capabilities: DialectCapabilities,
): boolean {
  const heads = capabilities.castText?.head;
  if (heads === undefined) return true;
  for (let f = 0; f < fields.length; f += 1) {
    // A text in place is checked as it is parsed (`parsedInPlace`).
    if (!fields[f]!.text || fields[f]!.inPlace) continue;
    const key = positionKey(f);
    for (let r = 0; r < rows.length; r += 1) {
      const value = rows[r]![key];
      if (value !== null && value !== undefined && !heads(value)) return false;
    }
  }
  return true;
}

/**
 * Whether every text at `keys` of `rows` (copies: the rows read keep them, for positions) is one
 * `parse` can tell, each replaced by what it answers.
 */
function parsedInPlace(rows: Row[], keys: readonly string[], parse: (text: string) => unknown): boolean {
  for (let k = 0; k < keys.length; k += 1) {
    const key = keys[k]!;
    for (let r = 0; r < rows.length; r += 1) {
      const row = rows[r]!;
      const text = row[key];
      if (text === null || text === undefined) continue;
      const value = typeof text === 'string' ? parse(text) : undefined;
      if (value === undefined) return false;
      row[key] = value;
    }
  }
  return true;
}

/**
 * The columns a window selects beside the query's own; with `exact`, the exact text of integers
 * the driver rounds; with `stale`, the text fields' fallbacks (a text in place too: its column
 * is then selected as it is).
 */
function windowSelections(plans: readonly FieldPlan[], exact: boolean, stale: boolean): PrivateSelection[] {
  return plans.flatMap((plan, i) => [
    ...(plan.select === null || (plan.inPlace && !stale)
      ? []
      : [{ expr: stale && plan.fallback !== null ? plan.fallback : plan.select, alias: positionKey(i) }]),
    ...(plan.exact === null || !exact ? [] : [{ expr: plan.exact.expr, alias: plan.exact.key }]),
  ]);
}

/** The texts a window selects in place of the query's own columns (`FieldPlan.inPlace`); none with `stale`. */
function windowReplaced(plans: readonly FieldPlan[], stale: boolean): PrivateSelection[] {
  if (stale) return [];
  return plans.flatMap((plan) => (plan.inPlace ? [{ expr: plan.select!, alias: plan.readKey }] : []));
}

/**
 * The statement of run `s` of a window's segments, as the adapter compiles it (`KeysetStatement`).
 */
function keysetStatement(
  plan: OrderPlan<unknown>,
  order: readonly KeyTerm[],
  shape: WindowShape,
  run: readonly Segment[],
  withOffset: boolean,
  hint: string | null,
  written: number | undefined,
): KeysetStatement {
  const { fields, exprs, nullable, capabilities } = plan;
  const bound: BoundParameter = (i, parameter) =>
    capabilities.boundParameter?.(parameter, fields[i]!.info) ?? parameter;
  const stopNulls = [...shape.stopMask].map((m) => m === '0');
  const base = {
    selections: windowSelections(fields, shape.exact, shape.stale),
    replaced: windowReplaced(fields, shape.stale),
    indexHint: hint,
    stop:
      shape.stopMask === '' ? null : stopPredicate(order, exprs, nullable, stopNulls, capabilities, bound),
  };
  const statement =
    run.length === 1
      ? segmentStatement(base, order, exprs, nullable, run[0]!, withOffset, capabilities, bound, written)
      : mergedStatement(base, order, exprs, plan.keys, run, withOffset, capabilities, bound, written);
  if (!shape.ties) return statement;
  // The statement's result columns, as a derived table names them.
  const keys: SqlPart[] = fields.map((f) => identifier(f.readKey));
  const items = orderByItems(order, keys, (i) => (nullable[i] ? false : 'column'), capabilities);
  if (capabilities.resortKeepsTies)
    return { ...statement, tieGroups: { keys, orderBy: items, lookAhead: null } };
  // The look-ahead row read apart, last of the rows it ties with.
  const lookAhead = lookAheadSlots(order.length, statement.limit);
  const orderBy = [...items, { expr: identifier(AHEAD_COLUMN), direction: 'asc' as const }];
  return { ...statement, tieGroups: { keys, orderBy, lookAhead } };
}

/**
 * The rows of a keyset window, statement after statement (each a run of segments); with
 * `exact`, with integers' exact text. Not `async`: a single statement (the common page) is the
 * statement's own promise, one await less. The rows come unchecked: the caller checks the ones
 * it keeps (`checked`).
 */
function readSegments<Template>(
  host: KeysetHost<Template>,
  plan: OrderPlan<Template>,
  order: readonly KeyTerm[],
  shape: WindowShape,
  segments: readonly (readonly Segment[])[],
  values: unknown[],
  window: WindowSpec,
  capabilities: DialectCapabilities,
): Promise<Row[]> {
  const { mask, stopMask, ties, exact, stale } = shape;
  const cache = host.session.cache;
  const single = segments.length === 1;
  const withOffset = single && window.offset > 0;
  // A keyset window without a limit reads to the end; SQL needs a number either way.
  const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
  values[order.length] = single ? limit : window.offset + limit;
  values[order.length + 1] = window.offset;
  const apart = ties && !capabilities.resortKeepsTies;
  if (apart) setLookAhead(values, order.length, withOffset ? window.offset : 0);
  const hint = plan.indexHint;
  const gone = cache.goneIndexes;
  const named = hint !== null && !gone.has(hint.key);
  // The first statement reads `limit` rows when no row is skipped (a single statement, or the
  // first of several, which read what the ones before left): its LIMIT may be written.
  const written =
    window.offset === 0 &&
    capabilities.literalLimit &&
    (host.base.length === 0 || capabilities.literalLimitWithValues === true)
      ? writtenLimit(plan.writtenLimits, limit)
      : undefined;
  const key = `${mask}|${stopMask}|${ties}|${withOffset}|${exact}|${stale}|${named}|`;
  const templateOf = (s: number): Template => {
    const templateKey = s === 0 && written !== undefined ? `${key}${written}|0` : key + s;
    // A warm page finds its statement here; only a new one is built and compiled.
    let template = plan.windows.get(templateKey);
    if (template === undefined) {
      const statement = keysetStatement(
        plan,
        order,
        shape,
        segments[s]!,
        withOffset,
        named ? hint.index : null,
        s === 0 ? written : undefined,
      );
      template = host.compile(statement);
      plan.windows.set(templateKey, template);
    }
    return template;
  };
  const read = single
    ? host.runner.run(templateOf(0), values, host.base)
    : readEach(host, segments.length, templateOf, values, order.length, window, limit, ties, apart);
  if (!named) return read;
  // The index named is gone (a migration dropped or renamed it): never named again, the page read without it.
  return read.catch((error: unknown) => {
    if (!capabilities.indexGone(error)) throw error;
    gone.add(hint.key);
    cache.indexes.delete(hint.table);
    return readSegments(host, plan, order, shape, segments, values, window, capabilities);
  });
}

/** Several segments cannot share one SQL OFFSET: the first rows are skipped as they arrive. */
async function readEach<Template>(
  host: KeysetHost<Template>,
  count: number,
  templateOf: (s: number) => Template,
  values: unknown[],
  limitSlot: number,
  window: WindowSpec,
  limit: number,
  ties: boolean,
  apart: boolean,
): Promise<Row[]> {
  const rows: Row[] = [];
  let toSkip = window.offset;
  // Each statement ranks its own rows from 1; no row of one ties with a row of another (their
  // segments exclude each other), so the groups of each are moved past the ones before.
  let groups = 0;
  for (let s = 0; s < count; s += 1) {
    const template = templateOf(s);
    values[limitSlot] = toSkip + limit - rows.length;
    if (apart) setLookAhead(values, limitSlot, 0);
    const result = await host.runner.run(template, values, host.base);
    let most = groups;
    // A result is never spread into push, which overflows the stack when large.
    for (const row of result) {
      if (ties) {
        row[TIE_COLUMN] = groups + Number(row[TIE_COLUMN]);
        most = Math.max(most, row[TIE_COLUMN] as number);
      }
      if (toSkip > 0) toSkip -= 1;
      else rows.push(row);
    }
    groups = most;
    if (rows.length >= limit) break;
  }
  return rows;
}

/** The look-ahead row's LIMITs (`lookAheadSlots`) for the limit in slot `terms`, read from `offset`. */
function setLookAhead(values: unknown[], terms: number, offset: number): void {
  const [limit, aheadLimit, aheadOffset] = lookAheadValues(values[terms] as number, offset);
  values[2 * terms + 2] = limit;
  values[2 * terms + 3] = aheadLimit;
  values[2 * terms + 4] = aheadOffset;
}

/**
 * The rows `read` answers, once every recorded position is known to be there (`refuseUnrecorded`);
 * without recorded positions `read` itself, one await less.
 */
function checked<Template>(
  host: KeysetHost<Template>,
  plan: OrderPlan<Template>,
  read: Promise<Row[]>,
): Promise<Row[]> {
  if (!plan.recorded) return read;
  return read.then((rows) => {
    refuseUnrecorded(rows, host.description, host.session.adapter.name);
    return rows;
  });
}

/**
 * Whether a row holds, at one of `keys`, a number the driver may have rounded from a 64-bit
 * integer: an integral one past 2^53 (every double that large is integral; none is safe).
 */
function holdsRounded(rows: readonly Row[], keys: readonly string[]): boolean {
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r]!;
    for (let k = 0; k < keys.length; k += 1) {
      const value = row[keys[k]!];
      if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)) return true;
    }
  }
  return false;
}

/** The LIMITs a plan writes as numbers: the page sizes in use, not every size a client asks for. */
const MAX_WRITTEN_LIMITS = 8;
/** Above it a LIMIT stays a parameter (a window read to the end is `Number.MAX_SAFE_INTEGER`). */
const MAX_WRITTEN_LIMIT = 10_000;

/**
 * `limit` when a plan's keyset statements may write it as a number (`literalLimit`): one of the
 * first `MAX_WRITTEN_LIMITS` limits the plan saw, each at most `MAX_WRITTEN_LIMIT`, so the
 * statements (and the names `nameStatements` gives them) stay few. `undefined`: a parameter.
 */
function writtenLimit(seen: Set<number>, limit: number): number | undefined {
  if (seen.has(limit)) return limit;
  // Only a whole number is ever written into SQL text: anything else stays a bound parameter.
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_WRITTEN_LIMIT) return undefined;
  if (seen.size >= MAX_WRITTEN_LIMITS) return undefined;
  seen.add(limit);
  return limit;
}
