import { ConfigurationError } from '@pagewise/core';
import type { ApiRequest } from '../request/api-request.js';
import { FORMAT_SUFFIX_KWARG, formatSuffixPattern } from '../routes/format-suffixes.js';
import { reverse } from '../routes/reverse.js';
import { NoReverseMatch, type RouteHandler, Routes } from '../routes/routes.js';
import { ApiView, type ApiViewOptions } from './api-view.js';
import {
  type ActionMap,
  GenericViewSet,
  ModelViewSet,
  ReadOnlyModelViewSet,
  type ViewSetAction,
  type ViewSetOptions,
} from './generic-view-set.js';

/**
 * A viewset class as routers take it.
 *
 * @example
 * const ViewSet: ViewSetClass = AuthorViewSet;
 */
export type ViewSetClass = (new (
  // biome-ignore lint/suspicious/noExplicitAny: a router takes viewsets of any row type.
  options?: any,
  // biome-ignore lint/suspicious/noExplicitAny: as above.
) => GenericViewSet<any>) & {
  readonly actionNames: readonly ViewSetAction[];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  actions(actionMap: ActionMap, options?: any): ReturnType<typeof GenericViewSet.actions>;
};

/**
 * What `register` takes besides the prefix and the class.
 *
 * @example
 * router.register('authors', AuthorViewSet, { basename: 'author', options: { paginationClass: null } })
 */
export interface RegisterOptions<Row = unknown> {
  /** Route names are `{basename}-list` and `{basename}-detail`. @default the prefix, `/` as `-` */
  readonly basename?: string;
  /** Options every viewset of this registration is made with (they win over subclass fields). */
  readonly options?: ViewSetOptions<Row>;
}

interface Registration {
  readonly prefix: string;
  readonly viewSet: ViewSetClass;
  readonly basename: string;
  readonly options: ViewSetOptions<unknown> | undefined;
}

/** Methods of the list and detail routes, as DRF's `SimpleRouter.routes` map them. */
const LIST_METHODS: ReadonlyArray<[keyof ActionMap, ViewSetAction]> = [
  ['get', 'list'],
  ['post', 'create'],
];
const DETAIL_METHODS: ReadonlyArray<[keyof ActionMap, ViewSetAction]> = [
  ['get', 'retrieve'],
  ['put', 'update'],
  ['patch', 'partialUpdate'],
  ['delete', 'destroy'],
];

/** The built-in classes whose prototypes hold the actions without routing them. */
const BASES: readonly object[] = [
  GenericViewSet.prototype,
  ReadOnlyModelViewSet.prototype,
  ModelViewSet.prototype,
];

/** Actions a class routes: declared in `actionNames`, or defined by a subclass of the built-ins. */
function routedActions(viewSet: ViewSetClass): Set<ViewSetAction> {
  const actions = new Set(viewSet.actionNames);
  for (let proto = viewSet.prototype as object | null; proto && !BASES.includes(proto); ) {
    for (const [, action] of [...LIST_METHODS, ...DETAIL_METHODS]) {
      if (Object.hasOwn(proto, action)) actions.add(action);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return actions;
}

function actionMapOf(
  methods: ReadonlyArray<[keyof ActionMap, ViewSetAction]>,
  routed: Set<ViewSetAction>,
): ActionMap {
  return Object.fromEntries(methods.filter(([, action]) => routed.has(action)));
}

const PREFIX = /^[A-Za-z0-9_.~-]+(?:\/[A-Za-z0-9_.~-]+)*$/;

/**
 * DRF's `SimpleRouter`: for each registered viewset, `/{prefix}/` named `{basename}-list`
 * (GET `list`, POST `create`) and `/{prefix}/:{lookupField}/` named `{basename}-detail` (GET
 * `retrieve`, PUT `update`, PATCH `partialUpdate`, DELETE `destroy`), each route holding only
 * the actions the viewset has. Other methods answer 405 with `Allow`.
 *
 * @example
 * const router = new SimpleRouter().register('authors', AuthorViewSet, { basename: 'author' });
 * const routes = new Routes();
 * router.addTo(routes, '/:version'); // /:version/authors/ and /:version/authors/:id/
 */
export class SimpleRouter {
  readonly #registry: Registration[] = [];
  /**
   * Whether each route is followed by a `.json` style suffixed twin (`formatSuffixPatterns`):
   * `DefaultRouter`'s `include_format_suffixes`. @default false
   */
  get includeFormatSuffixes(): boolean {
    return false;
  }

  /**
   * Registers a viewset under `prefix` (no leading or trailing `/`).
   *
   * @example
   * router.register('articles', ArticleViewSet, { basename: 'article' });
   */
  register<Row>(prefix: string, viewSet: ViewSetClass, options: RegisterOptions<Row> = {}): this {
    if (!PREFIX.test(prefix)) {
      throw new ConfigurationError(
        `Router prefixes are path segments without leading or trailing "/": ${prefix}`,
      );
    }
    if (!(viewSet.prototype instanceof GenericViewSet)) {
      throw new ConfigurationError(`${viewSet.name} is not a viewset; extend GenericViewSet or ModelViewSet`);
    }
    const basename = options.basename ?? prefix.replaceAll('/', '-');
    if (this.#registry.some((entry) => entry.basename === basename)) {
      throw new ConfigurationError(
        `Router basename "${basename}" is registered twice; pass a distinct basename`,
      );
    }
    this.#registry.push(
      Object.freeze({
        prefix,
        viewSet,
        basename,
        options: options.options as ViewSetOptions<unknown> | undefined,
      }),
    );
    return this;
  }

  /** The registrations, in order. */
  get registry(): ReadonlyArray<{
    readonly prefix: string;
    readonly viewSet: ViewSetClass;
    readonly basename: string;
  }> {
    return this.#registry;
  }

  /** A new route table with the routes of every registration (and, for `DefaultRouter`, the root). */
  get routes(): Routes {
    const routes = new Routes();
    this.addTo(routes);
    return routes;
  }

  /**
   * Adds the routes to `routes` under a path prefix (`'/:version'`, `'/api'`), so one router can
   * be mounted in a larger table or in a namespace (`routes.include('/v1', 'v1', (v1) => router.addTo(v1))`).
   *
   * @example
   * router.addTo(routes, '/:version');
   */
  addTo(routes: Routes, prefix = ''): Routes {
    const base = prefix.replace(/\/+$/, '');
    for (const { prefix: path, viewSet, basename, options } of this.#registry) {
      const routed = routedActions(viewSet);
      const lookupField = options?.lookupField ?? new viewSet(options).lookupField;
      const list = actionMapOf(LIST_METHODS, routed);
      const detail = actionMapOf(DETAIL_METHODS, routed);
      // DRF's route initkwargs: the name's suffix, the basename and whether the route is a detail.
      if (Object.keys(list).length > 0) {
        this.addRoute(
          routes,
          `${base}/${path}/`,
          `${basename}-list`,
          viewSet.actions(list, { ...options, suffix: 'List', basename, detail: false }),
        );
      }
      if (Object.keys(detail).length > 0) {
        this.addRoute(
          routes,
          `${base}/${path}/:${lookupField}([^/.]+)/`,
          `${basename}-detail`,
          viewSet.actions(detail, { ...options, suffix: 'Instance', basename, detail: true }),
        );
      }
    }
    return routes;
  }

  /**
   * Adds one route, followed by its suffixed twin when `includeFormatSuffixes` (DRF's
   * `format_suffix_patterns` over the router's URLs keeps this order).
   */
  protected addRoute(
    routes: Routes,
    pattern: string,
    name: string,
    handler: RouteHandler,
    suffixed: string = formatSuffixPattern(pattern),
  ): void {
    routes.add(pattern, name, handler);
    if (this.includeFormatSuffixes) routes.add(suffixed, name, handler);
  }
}

/**
 * Options of `DefaultRouter`: how its API root view is configured (settings, versioning,
 * renderers, title), as `ApiView` takes them.
 *
 * @example
 * new DefaultRouter({ settings, title: 'Demo API' })
 */
export interface DefaultRouterOptions extends ApiViewOptions {
  /** Name of the root route. @default 'api-root' */
  readonly rootName?: string;
  /**
   * Whether every route (the root's too) also answers with a `.json` style suffix:
   * `/articles.json`, `/articles/7.json`, `/.json` (DRF's `include_format_suffixes`). The suffix
   * picks the renderer of that format; one no renderer has is a 404 from the view.
   * @default true
   */
  readonly includeFormatSuffixes?: boolean;
  /**
   * More links of the root, after the registered lists: body key to route name, reversed with
   * the request like the lists. @default {}
   * @example
   * { articles_feed: 'article-feed', openapi: 'openapi' }
   */
  readonly rootLinks?: Readonly<Record<string, string>>;
}

/**
 * DRF's `DefaultRouter`: a `SimpleRouter` plus an API root at `/` named `api-root` whose body
 * maps each prefix to the absolute URL of its list, reversed with the request, so a versioned
 * request gets links of its version (path keyword, namespace or query parameter). Every route
 * also takes a `.json` style format suffix (`/authors.json`, `/authors/7.json`, `/.json`),
 * unless `includeFormatSuffixes: false`.
 *
 * @example
 * const router = new DefaultRouter({ settings }).register('authors', AuthorViewSet, { basename: 'author' });
 * // GET /v1/ -> { "authors": "http://localhost:3000/v1/authors/" }
 */
export class DefaultRouter extends SimpleRouter {
  readonly #options: DefaultRouterOptions;

  constructor(options: DefaultRouterOptions = {}) {
    super();
    this.#options = Object.freeze({ ...options });
  }

  override get includeFormatSuffixes(): boolean {
    return this.#options.includeFormatSuffixes ?? true;
  }

  override addTo(routes: Routes, prefix = ''): Routes {
    const { rootName = 'api-root', rootLinks = {}, includeFormatSuffixes: _, ...viewOptions } = this.#options;
    const entries = [
      ...this.registry
        .filter(({ viewSet }) => routedActions(viewSet).has('list'))
        .map(({ prefix: path, basename }) => [path, `${basename}-list`] as const),
      ...Object.entries(rootLinks),
    ];
    class APIRootView extends ApiView {
      static override description = 'The default basic root view for DefaultRouter';

      override get(request: ApiRequest): Record<string, string> {
        const format = request.params[FORMAT_SUFFIX_KWARG] ?? null;
        const namespace = request.namespace;
        const body: Record<string, string> = {};
        for (const [path, name] of entries) {
          // As DRF's root: the name in the root's own namespace first (a router included in one);
          // then, unlike DRF, the name as given (a link to a route outside it). A link whose route
          // cannot be reversed (no suffixed twin for `/.json`) is left out, not a failed root.
          for (const candidate of namespace ? [`${namespace}:${name}`, name] : [name]) {
            try {
              body[path] = reverse(candidate, { request, format });
              break;
            } catch (error) {
              if (!(error instanceof NoReverseMatch)) throw error;
            }
          }
        }
        return body;
      }
    }
    const base = prefix.replace(/\/+$/, '');
    // The root's suffix follows its slash, as DRF's `path('', ...)` under an included prefix: `/api/.json`.
    this.addRoute(
      routes,
      `${base}/`,
      rootName,
      APIRootView.asView(viewOptions),
      `${base}/${formatSuffixPattern('/').slice(1)}`,
    );
    return super.addTo(routes, prefix);
  }
}
