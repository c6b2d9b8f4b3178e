import type { VersionBundle } from '../version-bundle.js';
import type { ViewSchema } from './schema-source.js';
import type { JsonSchema, OpenApiParameter } from './schema-types.js';

/** What the document asks of a paginator: every `BasePagination` fits. */
export interface SchemaPagination {
  getPaginatedResponseSchema(schema: JsonSchema, options?: { readonly openapi?: '3.0' | '3.1' }): JsonSchema;
  getSchemaOperationParameters(view?: unknown): OpenApiParameter[];
}

/** An HTTP method an operation answers. */
export type OperationMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Where a view's versioning scheme reads the version, as the document shows it: a path
 * parameter, the route's namespace, a query parameter, the `Accept` media type parameter or the
 * host (as servers), or a request header of its own; `null` for a custom scheme the document cannot show.
 */
export type VersionLocation = 'path' | 'namespace' | 'query' | 'accept' | 'host' | 'header' | null;

/** A view's versioning scheme, as the document needs it. */
export interface SchemaVersioning {
  readonly location: VersionLocation;
  /** The parameter holding the version (`version`). */
  readonly param: string;
  /** The versions a request may ask for (allowed ones and the default), `[]` when any is allowed. */
  readonly versions: readonly string[];
  readonly defaultVersion: string | null;
  /** The version of the route itself (the namespace scheme), `null` when the route has none. */
  readonly routeVersion: string | null;
  /** Whether operations of `version` are deprecated (the scheme's `lifecycle`). */
  readonly deprecated: (version: string) => boolean;
  /**
   * The scheme's version bundle: each version's item and request-body schemas are the newest
   * ones through the chain's `schema` changes. @default null
   */
  readonly versionBundle?: VersionBundle | null;
}

/** One operation of a view on one route: a method and the action answering it. */
export interface DescribedOperation {
  readonly method: OperationMethod;
  /** `list`, `retrieve`, `create`, `update`, `partialUpdate`, `destroy`, or the method of a plain view. */
  readonly action: string;
  /** The body is an array of items (wrapped by `pagination` when there is one). */
  readonly list: boolean;
  /** @default 200 */
  readonly status: number;
  /** The item schema; `undefined` documents any JSON value. */
  readonly schema: ViewSchema | undefined;
  readonly pagination: SchemaPagination | null;
  /** Query parameters of the filters (`ordering`), after the pagination ones. */
  readonly parameters: readonly OpenApiParameter[];
  /** Writes: the fields the body may hold, and whether they are all optional (PATCH). */
  readonly requestBody: { readonly fields: readonly string[] | null; readonly partial: boolean } | null;
  /** Extra error answers, status to description (`{ '404': 'Not found.' }`). */
  readonly errors: Readonly<Record<string, string>>;
}

/** What a routed view tells the document about itself. */
export interface ViewDescription {
  readonly title: string;
  readonly description: string;
  readonly versioning: SchemaVersioning | null;
  readonly operations: readonly DescribedOperation[];
}

/** What a view is told when describing itself: the route it is mounted on. */
export interface ViewSchemaContext {
  readonly namespace: string | null;
}

/** Describes the view behind a route handler. */
export type ViewDescriber = (context: ViewSchemaContext) => ViewDescription;

const DESCRIBER = Symbol.for('@pagewise/core.describeView');

/**
 * A route handler that the document builder can describe (views made by `asView`, `actions`
 * and the routers are).
 */
export type DescribedHandler<H> = H & { readonly [DESCRIBER]: ViewDescriber };

/**
 * Attaches a describer to a route handler.
 *
 * @example
 * const handler = describeWith((request) => view.dispatch(request), () => description);
 */
export function describeWith<H extends (...args: never[]) => unknown>(
  handler: H,
  describer: ViewDescriber,
): DescribedHandler<H> {
  return Object.assign(handler, { [DESCRIBER]: describer });
}

/**
 * The describer of a route handler, `null` for one nobody described (a plain function, `apiView`).
 *
 * @example
 * describerOf(ArticleList.asView())?.({ namespace: null }).operations[0]?.action // 'list'
 */
export function describerOf(handler: unknown): ViewDescriber | null {
  if (typeof handler !== 'function') return null;
  const describer = (handler as unknown as Record<symbol, unknown>)[DESCRIBER];
  return typeof describer === 'function' ? (describer as ViewDescriber) : null;
}

/**
 * A wrapper of a route handler (error mapping, logging) documented as the handler it wraps.
 *
 * @example
 * routes.add('/articles/', 'article-list', describedLike((request) => guard(view, request), view));
 */
export function describedLike<A extends unknown[], R>(
  wrapper: (...args: A) => R,
  original: unknown,
): (...args: A) => R {
  const describer = describerOf(original);
  // A new function: the wrapper itself may be routed elsewhere undocumented.
  return describer ? describeWith((...args: A) => wrapper(...args), describer) : wrapper;
}
