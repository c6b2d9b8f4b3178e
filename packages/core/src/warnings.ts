import type { OrderedQuery } from './contract/ordered-query.js';

/** What Node's `process.emitWarning` takes besides a text warning. */
interface WarningOptions {
  /** Name of a text warning, e.g. `'PagewiseWarning'`. */
  readonly type?: string;
  /** A stable identifier, e.g. `'pagewise.W001'`. */
  readonly code?: string;
  /** More text, e.g. how to fix it. */
  readonly detail?: string;
}

/**
 * Receives Pagewise's warnings (`UnorderedObjectListWarning`, `PaginationWarning`, the settings'
 * W001 check); it has
 * the shape of Node's `process.emitWarning`, so that function itself fits.
 *
 * @example
 * new ApiSettings({ onWarning: (warning) => logger.warn(String(warning)) })
 */
export type WarningHook = (warning: string | Error, options?: WarningOptions) => void;

interface ProcessLike {
  emitWarning?: (warning: string | Error, options?: WarningOptions) => void;
}

/**
 * The default `WarningHook`: `process.emitWarning` where the runtime has it (Node, Bun, Deno),
 * looked up at each call so that `process.on('warning')` listeners and test spies see it;
 * `console.warn` where there is no `process` (Workers, browsers).
 *
 * @example
 * emitWarning(new UnorderedObjectListWarning('...'))
 */
export function emitWarning(warning: string | Error, options?: WarningOptions): void {
  const host = (globalThis as { process?: ProcessLike }).process;
  if (typeof host?.emitWarning === 'function') {
    if (options === undefined) host.emitWarning(warning);
    else host.emitWarning(warning, options);
    return;
  }
  const text =
    typeof warning === 'string'
      ? `${options?.type ?? 'Warning'}: ${warning}`
      : `${warning.name}: ${warning.message}`;
  console.warn(text);
}

/**
 * Emitted through the warning hook (by default `process.emitWarning`) when an offset-based
 * style pages a query without a defined order: pages may then overlap or skip rows between
 * requests.
 */
export class UnorderedObjectListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnorderedObjectListWarning';
  }
}

/**
 * Emitted through the warning hook, once per paginator class, when pagination is asked for but no
 * page size is set anywhere (the paginator's options, its fields, the settings): the list is then
 * answered whole, as DRF does, which is rarely what was meant.
 */
export class PaginationWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaginationWarning';
  }
}

/**
 * The warnings already passed on, by text, per holder: the hook they went to, or the options
 * object of a page function without one. Keyed weakly, so a holder and its texts go together; it
 * holds no request's data, only which mistakes of the configuration were told.
 */
const TOLD = new WeakMap<object, Set<string>>();
/** Distinct warnings told per holder (queries on many tables under one options object); later ones are dropped. */
const MAX_TOLD = 64;

/**
 * `options.onWarning` (else `emitWarning`) telling each distinct warning once: page functions are
 * called per request, and a configuration's mistake is news once, not on every request. Keyed on
 * the hook when one is given (one destination, however many option objects lead to it), else on
 * the options object.
 *
 * @example
 * const warn = warnOnce(options); warn(new PaginationWarning('...')); warn(new PaginationWarning('...')); // told once
 */
export function warnOnce(options: { readonly onWarning?: WarningHook | undefined }): WarningHook {
  const warn = options.onWarning ?? emitWarning;
  const holder: object = options.onWarning ?? options;
  return (warning, warningOptions) => {
    const text = typeof warning === 'string' ? warning : `${warning.name}: ${warning.message}`;
    let told = TOLD.get(holder);
    if (told === undefined) {
      told = new Set();
      TOLD.set(holder, told);
    }
    if (told.has(text) || told.size >= MAX_TOLD) return;
    told.add(text);
    if (warningOptions === undefined) warn(warning);
    else warn(warning, warningOptions);
  };
}

/**
 * Warns through `warn` (`PaginationWarning`, naming the option) when a client may choose the page
 * size and nothing bounds it: `?page_size=1000000` would list a million rows.
 *
 * @example
 * warnIfUnbounded('pageNumberPage', "pageSizeQueryParam 'page_size'", 'maxPageSize', warn)
 */
export function warnUnbounded(fn: string, chooser: string, maximum: string, warn: WarningHook): void {
  warn(
    new PaginationWarning(
      `${fn}: ${chooser} lets a client choose any page size, and nothing bounds it (${maximum} is not ` +
        `set): one request can list every row. Set ${maximum}, e.g. { ${maximum}: 100 }.`,
    ),
  );
}

/** Warns through `warn`, as Django's paginator does, when `query` has no defined order, naming the fix. */
export function warnIfUnordered(query: OrderedQuery<unknown>, warn: WarningHook = emitWarning): void {
  if (!query.ordered) {
    warn(
      new UnorderedObjectListWarning(
        `Pagination may yield inconsistent results with an unordered object_list: ${query.description}. ` +
          "Order it before paging: .orderBy(...) on the query (a Kysely builder's .orderBy('id')), or an " +
          "`ordering` (a view's ordering, an OrderingFilter, fromArray's ordering).",
      ),
    );
  }
}
