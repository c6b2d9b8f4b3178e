import { ApiError, ConfigurationError, isApiError } from '@pagewise/core';
import { forcedRenderer, type Negotiated, selectRenderer } from '../http/content-negotiation.js';
import {
  browsableHtmlRenderer,
  defaultRenderers,
  type RenderContext,
  type Renderer,
} from '../http/renderers.js';
import { isPerVersionSchema, type ViewSchema } from '../openapi/schema-source.js';
import {
  type DescribedOperation,
  describeWith,
  type OperationMethod,
  type ViewDescription,
  type ViewSchemaContext,
} from '../openapi/view-description.js';
import type { ApiRequest } from '../request/api-request.js';
import { ApiResponse, COPY_RESPONSE, EDIT_HEADERS, type HeaderEditor } from '../request/api-response.js';
import { patchVaryHeaders } from '../request/vary.js';
import type { RouteHandler } from '../routes/routes.js';
import { ApiSettings, assignOptions } from '../settings.js';
import type { VersionBundle, VersionedBody } from '../version-bundle.js';
import { Gone } from '../version-lifecycle.js';
import type { BaseVersioning, VersioningClass, VersionStatus } from '../versioning/base-versioning.js';
import type { FieldMetadata } from './simple-metadata.js';
import { dedentDescription, viewNameOf } from './view-names.js';

/**
 * 405 for a method the view does not handle, DRF's `MethodNotAllowed`.
 * @example throw new MethodNotAllowed('POST'); // detail: 'Method "POST" not allowed.'
 */
export class MethodNotAllowed extends ApiError {
  constructor(method: string) {
    super(`Method "${method}" not allowed.`, { status: 405, code: 'method_not_allowed' });
  }
}

/**
 * 403, DRF's `PermissionDenied`: what `checkPermissions` throws to refuse a request.
 * @example throw new PermissionDenied(); // detail: 'You do not have permission to perform this action.'
 */
export class PermissionDenied extends ApiError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(detail, { status: 403, code: 'permission_denied' });
  }
}

/**
 * A function answering one request, for `apiView`.
 *
 * @example
 * const handler: ViewFunction = (request) => ({ version: request.version });
 */
export type ViewFunction = (request: ApiRequest, view: ApiView) => unknown;

/**
 * Options of `ApiView`; each may also be set as a field of a subclass.
 *
 * @example
 * Health.asView({ versioningClass: null, renderers: [jsonRenderer] })
 */
export interface ApiViewOptions {
  /** @default ApiSettings.defaults */
  settings?: ApiSettings;
  /** Versioning scheme; `null` disables versioning. @default settings.defaultVersioningClass */
  versioningClass?: VersioningClass | null;
  /** Renderers content negotiation picks from, the first being the default. @default [JSON, HTML] */
  renderers?: readonly Renderer[];
  /**
   * The view's name on the browsable page and in OPTIONS, DRF's `name`.
   * @default the class name in words, without `View`/`ViewSet`, plus `suffix`
   */
  title?: string;
  /** Added to the name made from the class, DRF's `suffix` (routers give `List` and `Instance`). @default null */
  suffix?: string | null;
  /** What OPTIONS answers as `description`, DRF's `description`. @default the class's static `description` */
  description?: string;
  /**
   * Schema of the response data (of one item, for list views), for the OpenAPI document: a JSON
   * Schema or a Standard Schema (Zod, ...), or one per version with `perVersion`. @default none (any JSON)
   */
  schema?: ViewSchema;
  /**
   * Versions as code: the view is written for the bundle's newest version and serves every other
   * one through its changes (its scheme's `allowedVersions` and `defaultVersion` come from it).
   * @default settings.versionBundle (null)
   */
  versionBundle?: VersionBundle | null;
}

/** A unique default version, to tell "the request named none" from what the scheme read. */

/**
 * What OPTIONS answers, DRF's `SimpleMetadata`: the view's name and description and the media
 * types it renders and parses; list views add their pagination parameters.
 *
 * @example
 * { name: 'Articles', description: '', renders: ['application/json', 'text/html'], parses: ['application/json'] }
 */
export interface ViewMetadata {
  readonly name: string;
  readonly description: string;
  readonly renders: readonly string[];
  readonly parses: readonly string[];
  /** The fields a `POST` and a `PUT` take, for a user allowed to send them (viewsets). */
  readonly actions?: Readonly<Record<string, Readonly<Record<string, FieldMetadata>>>>;
  readonly [key: string]: unknown;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Turns what a handler returned into a response: data becomes a 200.
 *
 * @example
 * toApiResponse({ ok: true }).status // 200
 */
export function toApiResponse(value: unknown): ApiResponse {
  return value instanceof ApiResponse ? value : new ApiResponse(value);
}

/**
 * DRF's `APIView`: per request it negotiates the renderer (JSON, or a browsable page for
 * `text/html`; 406 when nothing fits), determines the version (`request.version`,
 * `request.versioningScheme`), runs the method handler, turns `ApiError`s into
 * `{ "detail": ... }` answers and renders the response. Errors that are not `ApiError`s
 * propagate to the binding (500).
 *
 * @example
 * class Health extends ApiView {
 *   get() { return { ok: true }; }
 * }
 * routes.add('/health/', 'health', Health.asView());
 */
export class ApiView {
  /**
   * The view's docstring: what OPTIONS (and the OpenAPI document) answer as its description,
   * dedented as DRF dedents a docstring. Like Python's `__doc__` it is the class's own: a subclass
   * without one has none. An instance `description` wins over it.
   * @default undefined
   * @example
   * class ArticleList extends ListView<Article> {
   *   static override description = 'Articles, newest first.';
   * }
   */
  static description?: string;
  /** @default ApiSettings.defaults */
  settings: ApiSettings = ApiSettings.defaults;
  /** `null` disables versioning. @default settings.defaultVersioningClass */
  versioningClass?: VersioningClass | null;
  /** @default [jsonRenderer, browsableHtmlRenderer] */
  renderers: readonly Renderer[] = defaultRenderers;
  /** The view's name, DRF's `name`. @default the class name in words plus `suffix` (`viewName()`) */
  title?: string;
  /** Added to the name made from the class (`List`, `Instance`). @default null */
  suffix?: string | null;
  /** What OPTIONS answers as `description`. @default the class's static `description`, else '' */
  description?: string;
  /** Schema of the response data, for the OpenAPI document. @default none (any JSON) */
  schema?: ViewSchema;
  /** Media types request bodies may have, for OPTIONS. @default ['application/json'] */
  parses: readonly string[] = ['application/json'];
  /** The request being answered. */
  request: ApiRequest | null = null;
  /** The scheme instance of this request, also when it refused the version. */
  versioningScheme: BaseVersioning | null = null;
  /**
   * The lifecycle of the request's version (deprecation, sunset), read once per request;
   * `null` for a version without one or when no version was determined. @default null
   */
  versionStatus: VersionStatus | null = null;
  /** The outcome of content negotiation, `null` when it failed. */
  negotiated: Negotiated | null = null;
  /** @default settings.versionBundle (null) */
  versionBundle?: VersionBundle | null;
  /**
   * The bundle serving this request: set once its version is determined (and not refused), so
   * its responses carry `Api-Version`. @default null
   */
  servingBundle: VersionBundle | null = null;
  get?(request: ApiRequest): unknown;
  post?(request: ApiRequest): unknown;
  put?(request: ApiRequest): unknown;
  patch?(request: ApiRequest): unknown;
  delete?(request: ApiRequest): unknown;

  constructor(options: ApiViewOptions = {}) {
    this.configure(options);
  }

  /**
   * Copies the options that are set onto the view. Subclass field initializers run after a
   * base constructor, so `asView` configures again once the view is built: options win.
   */
  configure(options: object): this {
    assignOptions(this, options);
    return this;
  }

  /**
   * A route handler making a fresh view per request (DRF's `as_view`), so nothing a request
   * leaves on the view or its paginator reaches the next one.
   *
   * @example
   * routes.add('/articles/', 'article-list', ArticleList.asView({ paginationClass: null }));
   */
  // `this` is the view class and `options` what its constructor takes. The constraint's `any` is
  // what lets a subclass give `asView` a signature of its own (ListView's infers the row type).
  // biome-ignore lint/suspicious/noExplicitAny: the widest constructor, as a constraint only
  static asView<C extends new (options?: any) => ApiView>(
    this: C,
    options?: ConstructorParameters<C>[0],
  ): RouteHandler {
    return describeWith(
      (request: ApiRequest) => new this(options).configure(options ?? {}).dispatch(request),
      (context) => new this(options).configure(options ?? {}).describeSchema(context),
    );
  }

  /**
   * The versioning scheme this view uses, `null` when versioning is disabled.
   * @default a `versioningClass` (else `settings.defaultVersioningClass`) instance
   * @example
   * new ApiView({ versioningClass: URLPathVersioning }).makeVersioningScheme() // a URLPathVersioning
   */
  makeVersioningScheme(): BaseVersioning | null {
    const versioningClass =
      this.versioningClass === undefined
        ? (this.settings.defaultVersioningClass as VersioningClass | null)
        : this.versioningClass;
    if (!versioningClass) return null;
    return new versioningClass(
      this.versionBundle === undefined
        ? { settings: this.settings }
        : { settings: this.settings, versionBundle: this.versionBundle },
    );
  }

  /**
   * What the OpenAPI document shows of this view (DRF's `AutoSchema`): one operation per
   * handled method, answering `schema`.
   * @example
   * new Health().describeSchema({ namespace: null }).operations.map((op) => op.method) // ['get']
   */
  describeSchema(context: ViewSchemaContext): ViewDescription {
    const scheme = this.makeVersioningScheme();
    if (scheme?.versionBundle && isPerVersionSchema(this.schema)) {
      throw new ConfigurationError(
        `${this.constructor.name}: a perVersion schema beside a version bundle; give the newest version's ` +
          'schema and let the bundle convert it (versionChange({ schema }))',
      );
    }
    return {
      title: this.viewName(),
      description: this.viewDescription(),
      versioning: scheme?.schemaVersioning(context.namespace) ?? null,
      operations: this.handledMethods().map((method) =>
        this.describeOperation(method.toLowerCase() as OperationMethod),
      ),
    };
  }

  /**
   * The operation of one method: a 200 answering `schema`.
   * @example
   * new Health().describeOperation('get').status // 200
   */
  describeOperation(method: OperationMethod): DescribedOperation {
    return {
      method,
      action: method,
      list: false,
      status: 200,
      schema: this.schema,
      pagination: null,
      parameters: [],
      requestBody: null,
      errors: {},
    };
  }

  /** Methods this view answers, for `Allow`: its handlers, `HEAD` with `GET`, and `OPTIONS`. */
  allowedMethods(): string[] {
    const methods = this.handledMethods();
    if (methods.includes('GET')) methods.push('HEAD');
    methods.push('OPTIONS');
    return methods;
  }

  /** The methods with a handler, upper case (`HEAD` and `OPTIONS` come with every view). */
  handledMethods(): string[] {
    return HTTP_METHODS.filter((name) => typeof this[name] === 'function').map((name) => name.toUpperCase());
  }

  /**
   * DRF's `get_view_name`: `title` when set, else the class name in words without `View` or
   * `ViewSet`, followed by `suffix`. The heading of the browsable page and the `name` of OPTIONS.
   * @example
   * new ArticleList().viewName() // 'Article List'
   * // ArticleViewSet behind a router: 'Article List' and 'Article Instance'
   */
  viewName(): string {
    if (this.title !== undefined) return this.title;
    const name = viewNameOf(this.constructor.name);
    return this.suffix ? `${name} ${this.suffix}` : name;
  }

  /**
   * DRF's `get_view_description`: `description` when set, else the class's own static
   * `description` (its docstring), dedented.
   * @example
   * new ArticleList().viewDescription() // 'Articles, newest first.'
   */
  viewDescription(): string {
    if (this.description !== undefined) return dedentDescription(this.description);
    const viewClass = this.constructor as typeof ApiView;
    return Object.hasOwn(viewClass, 'description') && typeof viewClass.description === 'string'
      ? dedentDescription(viewClass.description)
      : '';
  }

  /**
   * DRF's `check_permissions`: throw (`PermissionDenied`, any `ApiError`) to refuse the request.
   * Views call it after negotiation and versioning, before the handler; OPTIONS calls it with a
   * copy of the request for each write method, to list only the writes this user may send.
   * @default allows every request
   * @example
   * override checkPermissions(request: ApiRequest) {
   *   if (request.method !== 'GET' && !request.headers.has('authorization')) throw new PermissionDenied();
   * }
   */
  checkPermissions(_request: ApiRequest): void | Promise<void> {}

  /**
   * What OPTIONS answers (DRF's `SimpleMetadata.determine_metadata`): the view's name and
   * description and the media types it renders and parses.
   *
   * @example
   * await new ArticleList().metadata(request) // { name: 'Article List', description: '', renders: [...], parses: [...] }
   */
  async metadata(_request: ApiRequest): Promise<ViewMetadata> {
    return {
      name: this.viewName(),
      description: this.viewDescription(),
      renders: this.renderers.map((renderer) => renderer.mediaType),
      parses: [...this.parses],
    };
  }

  /**
   * Negotiation, then versioning, as DRF's `initial()`; a version past its sunset is a 410. The
   * scheme is made first so that its `Vary` headers are sent even when negotiation or the version
   * is refused.
   */
  async initial(request: ApiRequest): Promise<void> {
    this.versioningScheme = this.makeVersioningScheme();
    request.version = null;
    request.versioningScheme = null;

    const override = this.settings.urlFormatOverride;
    const format = request.params.format ?? (override ? request.queryParams.get(override) : null);
    this.negotiated = selectRenderer({ accept: request.headers.get('accept'), format }, this.renderers);
    request.acceptedRenderer = this.negotiated.renderer;
    request.acceptedMediaType = this.negotiated.acceptedMediaType;

    const scheme = this.versioningScheme;
    if (scheme === null) return;
    const version = await this.determineVersion(scheme, request);
    request.version = scheme.servedVersion(version);
    request.versioningScheme = scheme;
    this.versionStatus = scheme.versionStatus(request.version);
    if (this.versionStatus?.gone) throw new Gone(scheme.sunsetDetail(this.versionStatus.version));
    if (scheme.versionBundle !== null && request.version !== null) this.servingBundle = scheme.versionBundle;
  }

  /**
   * The scheme's version of the request (`scheme.requestVersion`): a `defaultVersion` function is
   * asked only when the request names no version (its `null` is the bundle's newest).
   */
  async determineVersion(scheme: BaseVersioning, request: ApiRequest): Promise<string | null> {
    return scheme.requestVersion(request, request.params);
  }

  /**
   * One item written for the newest version (a serializer's output), as the request's version
   * shows it: the bundle's `response` changes. As it is without a serving bundle.
   *
   * @example
   * return view.versionItem({ id: 1, headline: 'Hi' }, request); // { id: 1, title: 'Hi' } under an older version
   */
  versionItem(item: unknown, request: ApiRequest): unknown {
    const bundle = this.servingBundle;
    if (bundle === null || request.version === null) return item;
    return bundle.convertItem(item, { request, version: request.version });
  }

  /**
   * A list's response, its items already converted, through the bundle's `envelope` changes:
   * a new response with the same status and headers (links stay as they are).
   */
  versionEnvelope(response: ApiResponse, request: ApiRequest): ApiResponse {
    const bundle = this.servingBundle;
    const version = request.version;
    if (bundle === null || version === null || !bundle.converts(version, 'envelope')) return response;
    const copy =
      typeof response[COPY_RESPONSE] === 'function'
        ? response[COPY_RESPONSE]()
        : new ApiResponse<unknown>(response.data, { status: response.status, headers: response.headers });
    copy.data = bundle.convertEnvelope(response.data, { request, version });
    return copy;
  }

  /**
   * A JSON object request body sent under the request's version, as the newest version reads it
   * (the bundle's `request` changes). As it is without a serving bundle.
   */
  versionRequestBody(body: VersionedBody, request: ApiRequest): VersionedBody {
    const bundle = this.servingBundle;
    if (bundle === null || request.version === null) return body;
    return bundle.convertRequest(body, { request, version: request.version });
  }

  /** Runs the handler of the request's method (`GET` also answers `HEAD`; `OPTIONS` answers `metadata`). */
  async handle(request: ApiRequest): Promise<unknown> {
    if (request.method === 'OPTIONS') return this.metadata(request);
    const name = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
    const handler = (HTTP_METHODS as readonly string[]).includes(name)
      ? this[name as (typeof HTTP_METHODS)[number]]
      : undefined;
    if (typeof handler !== 'function') throw new MethodNotAllowed(request.method);
    return handler.call(this, request);
  }

  /** `ApiError` to its answer; anything else is rethrown. */
  handleException(error: unknown): ApiResponse {
    if (!isApiError(error)) throw error;
    const response = new ApiResponse(error.toJSON(), { status: error.status });
    patchVaryHeaders(response.headers, error.vary ?? []);
    return response;
  }

  /** The paginator's controls for the browsable page. @default '' */
  controlsHtml(): string {
    return '';
  }

  /**
   * Answers one request: the rendered response (string body, `Content-Type` set), with `Vary`
   * naming `Accept` when negotiation or the version depends on it.
   */
  async dispatch(request: ApiRequest): Promise<ApiResponse> {
    this.request = request;
    let response: ApiResponse;
    try {
      await this.initial(request);
      await this.checkPermissions(request);
      response = toApiResponse(await this.handle(request));
    } catch (error) {
      response = this.handleException(error);
    }
    return this.finalizeResponse(request, response);
  }

  /** Renders `response` with the negotiated renderer (the first one when negotiation failed). */
  finalizeResponse(request: ApiRequest, response: ApiResponse): ApiResponse {
    const negotiated = this.negotiated ?? forcedRenderer(this.renderers);
    // A new response (the handler's stays as it was) whose headers are edited in place, as a
    // deferred list unless the handler made them: the bindings write that without a `Headers`.
    const finished =
      typeof response[COPY_RESPONSE] === 'function'
        ? response[COPY_RESPONSE]()
        : new ApiResponse<unknown>(response.data, { status: response.status, headers: response.headers });
    const headers = finished[EDIT_HEADERS]();
    const status = this.versionStatus;
    if (status !== null) applyLifecycleHeaders(headers, status);
    const scheme = this.versioningScheme;
    if (this.servingBundle !== null && scheme !== null && request.version !== null)
      headers.set(scheme.versionResponseHeader, request.version);
    if (!(typeof response.data === 'string' && headers.has('content-type'))) {
      // DRF's browsable renderer shows a 204 (a DELETE) as a 200 page; a 204 has no body otherwise.
      if (finished.status === 204 && negotiated.renderer === browsableHtmlRenderer) finished.status = 200;
      const context = new ViewRenderContext(this, request, response.status, negotiated.acceptedMediaType);
      const body = finished.status === 204 ? '' : negotiated.renderer.render(response.data, context);
      // DRF's `rendered_content`: nothing rendered, no Content-Type (and `undefined` data, which
      // the bindings send as no body at all).
      if (body === '') finished.data = undefined;
      else {
        finished.data = body;
        headers.set('content-type', negotiated.contentType);
      }
    }
    const vary = [
      ...(this.renderers.length > 1 ? ['Accept'] : []),
      ...(this.versioningScheme?.varyHeaders ?? []),
    ];
    patchVaryHeaders(headers, vary);
    if (!headers.has('allow')) headers.set('allow', this.allowedMethods().join(', '));
    return finished;
  }
}

/**
 * What a view's renderer is told: the browsable page's parts (controls, title, version notice)
 * are worked out only when a renderer reads them (JSON does not). Its getters are the class's,
 * shared by every response: V8 (Node 20) keeps an object literal's getters that close over the
 * request reachable until a full collection, and with them every request's objects past each
 * young-generation collection (`tests/reliability/young-garbage.test.ts`).
 */
class ViewRenderContext implements RenderContext {
  readonly request: ApiRequest;
  readonly status: number;
  readonly acceptedMediaType: string;
  readonly #view: ApiView;
  #controls: string | undefined;
  #notice: RenderContext['versionNotice'];

  constructor(view: ApiView, request: ApiRequest, status: number, acceptedMediaType: string) {
    this.request = request;
    this.status = status;
    this.acceptedMediaType = acceptedMediaType;
    this.#view = view;
  }

  get controlsHtml(): string {
    this.#controls ??= this.#view.controlsHtml();
    return this.#controls;
  }

  get title(): string {
    return this.#view.viewName();
  }

  /** The lifecycle notice of a versioned view's request version, when it has one. */
  get versionNotice(): RenderContext['versionNotice'] {
    const status = this.#view.versionStatus;
    const scheme = this.#view.versioningScheme;
    if (status === null || scheme === null) return undefined;
    this.#notice ??= { text: scheme.versionNotice(status), link: status.lifecycle.link ?? null };
    return this.#notice;
  }
}

/**
 * Sets a version's `Deprecation` and `Sunset` headers and adds its `Link` values after those the
 * response has (a pagination `next`/`prev`): one combined `Link` header, as paginators set it.
 */
function applyLifecycleHeaders(headers: HeaderEditor, status: VersionStatus): void {
  const { deprecation, sunset, link } = status.headers;
  if (deprecation !== undefined) headers.set('deprecation', deprecation);
  if (sunset !== undefined) headers.set('sunset', sunset);
  if (link !== undefined) {
    const existing = headers.get('link');
    headers.set('link', existing ? `${existing}, ${link}` : link);
  }
}

/** An `apiView` handler's 2xx answer through the serving bundle, as its `convert` option says. */
function convertAnswer(view: ApiView, request: ApiRequest, response: ApiResponse, convert: 'item' | 'list') {
  if (
    view.servingBundle === null ||
    response.status < 200 ||
    response.status >= 300 ||
    response.status === 204
  )
    return response;
  const data: unknown = response.data;
  let converted: unknown;
  if (convert === 'item') converted = view.versionItem(data, request);
  else if (Array.isArray(data)) converted = data.map((item) => view.versionItem(item, request));
  else if (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as { results?: unknown }).results)
  ) {
    const body = data as { results: unknown[] };
    converted = { ...body, results: body.results.map((item) => view.versionItem(item, request)) };
  } else converted = data;
  const copy =
    typeof response[COPY_RESPONSE] === 'function'
      ? response[COPY_RESPONSE]()
      : new ApiResponse<unknown>(response.data, { status: response.status, headers: response.headers });
  copy.data = converted;
  return convert === 'list' ? view.versionEnvelope(copy, request) : copy;
}

/**
 * A plain handler with the view machinery around it (DRF's `@api_view`): negotiation,
 * versioning, errors as `{ "detail": ... }`. It answers `GET` (and `HEAD`) unless `methods` says
 * otherwise. Such handlers paginate by hand. The OpenAPI document shows it when `schema` is given.
 *
 * @example
 * routes.add('/:version/articles/', 'article-list', apiView(async (request) => {
 *   const paginator = new PageNumberPagination({ pageSize: 20 });
 *   const rows = await paginator.paginateQueryset(query, request);
 *   return rows === null ? await all(query) : paginator.getPaginatedResponse(rows);
 * }, { versioningClass: URLPathVersioning }));
 */
export function apiView(
  handler: ViewFunction,
  options: ApiViewOptions & {
    methods?: readonly string[];
    /**
     * Under a version bundle, what of the handler's 2xx answer is converted: `'item'` the body as
     * one item, `'list'` each item of an array or of a paginated body's `results`, then the
     * envelope hooks. A handler may also convert by hand (`view.versionItem`). @default null (nothing)
     */
    convert?: 'item' | 'list' | null;
  } = {},
): RouteHandler {
  const { methods = ['GET'], convert = null, ...viewOptions } = options;
  const allowed = methods.map((method) => method.toLowerCase());
  // One class per handler, its methods on the prototype: a closure stored on each request's view
  // would keep every request's objects past V8's young-generation collections (see
  // `ViewRenderContext`).
  // DRF names a function view after its function (`plain_thing` is "Plain Thing"); an anonymous
  // one has no name to give.
  const name = handler.name ? viewNameOf(handler.name) : 'Pagewise API';
  class FunctionView extends ApiView {
    override viewName(): string {
      return this.title ?? name;
    }
  }
  for (const key of HTTP_METHODS) {
    if (!allowed.includes(key)) continue;
    Object.defineProperty(FunctionView.prototype, key, {
      configurable: true,
      writable: true,
      async value(this: ApiView, request: ApiRequest) {
        const answer = await handler(request, this);
        return convert === null ? answer : convertAnswer(this, request, toApiResponse(answer), convert);
      },
    });
  }
  const makeView = () => new FunctionView(viewOptions);
  const routeHandler = (request: ApiRequest) => makeView().dispatch(request);
  // Documented only when it says what it answers: a handler without a schema (the document's own route) is left out.
  return viewOptions.schema === undefined
    ? routeHandler
    : describeWith(routeHandler, (context) => makeView().describeSchema(context));
}
