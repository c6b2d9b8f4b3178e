import type { OrderedQuery, OrderingField, OrderingInput, TypedOrdering } from '@pagewise/core';
import { ConfigurationError } from '@pagewise/core';
import type { SchemaOutput, ViewSchema } from '../openapi/schema-source.js';
import type { DescribedOperation, OperationMethod } from '../openapi/view-description.js';
import { BasePagination } from '../pagination/base-pagination.js';
import type { ApiRequest } from '../request/api-request.js';
import { ApiResponse } from '../request/api-response.js';
import type { RouteHandler } from '../routes/routes.js';
import type { ApiSettings } from '../settings.js';
import { ApiView, type ApiViewOptions, type ViewMetadata } from './api-view.js';
import type { FilterBackend, FilterView } from './ordering-filter.js';

/**
 * A pagination class, as views and `ApiSettings.defaultPaginationClass` take it.
 *
 * @example
 * class ArticleList extends ListView<Article> { paginationClass: PaginationClass = CursorPagination; }
 */
export type PaginationClass = new (options?: { settings?: ApiSettings }) => BasePagination;

/**
 * What a serializer is told besides the row.
 *
 * @example
 * serializer: (row, { request }) => ({ ...row, url: reverse('article-detail', { kwargs: { pk: row.id }, request }) })
 */
export interface SerializerContext<Row> {
  readonly request: ApiRequest;
  readonly view: ListView<Row>;
}

/**
 * Options of `ListView`; each may also be set as a field of a subclass.
 *
 * @example
 * ListView.asView({ queryset: fromArray(rows), paginationClass: PageNumberPagination })
 */
export interface ListViewOptions<Row, S extends ViewSchema = ViewSchema> extends ApiViewOptions {
  /** The rows to list, or a function making them per request. */
  queryset?: OrderedQuery<Row> | ((request: ApiRequest) => OrderedQuery<Row> | Promise<OrderedQuery<Row>>);
  /**
   * Schema of one item: a JSON Schema or a Standard Schema (Zod, ...), or one per version with
   * `perVersion`. The OpenAPI document shows it, and the `serializer` must answer its output type.
   * @default none (any JSON)
   */
  schema?: S;
  /**
   * Turns a row into response data; may branch on `request.version`. A method signature, so a
   * serializer typed for the row (`(row: Article) => ...`) fits `ListView.asView({...})`. With a
   * Standard Schema as `schema`, it answers that schema's output type.
   * @default the row itself
   */
  serializer?(row: Row, context: SerializerContext<Row>): SchemaOutput<S>;
  /** `null` lists everything as a bare array. @default settings.defaultPaginationClass */
  paginationClass?: PaginationClass | null;
  /** Run in order before paginating. @default [] */
  filterBackends?: readonly FilterBackend[];
  /**
   * The default ordering an `OrderingFilter` falls back to; checked against the row's fields
   * when the queryset's rows are typed. @default null
   */
  ordering?: TypedOrdering<NoInfer<Row>> | null;
  /** Fields an `OrderingFilter` lets clients order by (the row's fields when typed). @default null */
  orderingFields?: readonly OrderingField<NoInfer<Row>>[] | null;
}

/**
 * DRF's `ListAPIView`: filter the query, then paginate it automatically, then serialize the page
 * (or everything, as a bare array, when the request is not paginated). A fresh view serves each
 * request, with a paginator of its own used through DRF's two-step API (`paginateQueryset`, then
 * `getPaginatedResponse`), so a style that overrides either is honoured.
 *
 * @example
 * class ArticleList extends ListView<Article> {
 *   queryset = fromArray(articles, { ordering: '-published' });
 *   paginationClass = PageNumberPagination;
 *   override serialize(article: Article, request: ApiRequest) {
 *     return request.version === 'v1' ? { title: article.title } : article;
 *   }
 * }
 */
export class ListView<Row = unknown, S extends ViewSchema = ViewSchema>
  extends ApiView
  implements FilterView
{
  /** The rows to list, or a function making them per request. */
  queryset?: ListViewOptions<Row>['queryset'];
  /** Schema of one item, for the OpenAPI document and the serializer's type. @default none */
  declare schema?: S;
  /** @default the row itself */
  serializer?: ListViewOptions<Row, S>['serializer'];
  /** `null` lists everything as a bare array. @default settings.defaultPaginationClass */
  paginationClass?: PaginationClass | null;
  /** @default [] */
  filterBackends: readonly FilterBackend[] = [];
  /** Default ordering of an `OrderingFilter`. @default null */
  ordering: OrderingInput | null = null;
  /** Fields an `OrderingFilter` lets clients order by. @default null (none) */
  orderingFields: readonly string[] | null = null;
  #paginator: BasePagination | null | undefined;

  constructor(options: ListViewOptions<Row, S> = {}) {
    super(options);
    // This class's field initializers ran after the base constructor copied the options.
    this.configure(options);
  }

  /** The paginator of this view (so of this request), made on first use; `null` when disabled. */
  get paginator(): BasePagination | null {
    if (this.#paginator === undefined) {
      const paginationClass =
        this.paginationClass === undefined
          ? (this.settings.defaultPaginationClass as PaginationClass | null)
          : this.paginationClass;
      this.#paginator = paginationClass ? new paginationClass({ settings: this.settings }) : null;
      if (this.#paginator !== null && !(this.#paginator instanceof BasePagination)) {
        throw new ConfigurationError('paginationClass must make a BasePagination');
      }
    }
    return this.#paginator;
  }

  /** The rows to list. @default the `queryset` option */
  async getQueryset(request: ApiRequest): Promise<OrderedQuery<Row>> {
    const source = this.queryset;
    if (source === undefined) throw new ConfigurationError(`${this.constructor.name} needs a queryset`);
    return typeof source === 'function' ? source(request) : source;
  }

  /** Runs the filter backends in order. */
  async filterQueryset(query: OrderedQuery<Row>, request: ApiRequest): Promise<OrderedQuery<Row>> {
    let filtered = query;
    for (const backend of this.filterBackends)
      filtered = await backend.filterQueryset(request, filtered, this);
    return filtered;
  }

  /** The page's rows, or `null` when this request is not paginated. */
  async paginateQueryset(query: OrderedQuery<Row>, request: ApiRequest): Promise<Row[] | null> {
    const paginator = this.paginator;
    return paginator === null ? null : paginator.paginateQueryset(query, request, this);
  }

  getPaginatedResponse(data: unknown[]): ApiResponse {
    const paginator = this.paginator;
    if (paginator === null) throw new ConfigurationError('getPaginatedResponse() needs a paginator');
    return paginator.getPaginatedResponse(data);
  }

  /** One row as response data. @default the `serializer` option, else the row */
  serialize(row: Row, request: ApiRequest): unknown {
    return this.serializer ? this.serializer(row, { request, view: this }) : row;
  }

  /** Every row of an unpaginated list, in the query's order: one query, no count. */
  async fetchAll(query: OrderedQuery<Row>): Promise<Row[]> {
    const rows = await query.fetch({ order: null, after: null, offset: 0, limit: null });
    return rows.map((entry) => entry.row);
  }

  /** DRF's `ListModelMixin.list`. */
  async list(request: ApiRequest): Promise<ApiResponse> {
    const query = await this.filterQueryset(await this.getQueryset(request), request);
    const page = await this.paginateQueryset(query, request);
    // Under a version bundle each item is converted, never the envelope or its links (unless a
    // change has an `envelope` hook).
    const item = (row: Row) => this.versionItem(this.serialize(row, request), request);
    if (page !== null) return this.versionEnvelope(this.getPaginatedResponse(page.map(item)), request);
    const rows = await this.fetchAll(query);
    return this.versionEnvelope(new ApiResponse(rows.map(item)), request);
  }

  override get(request: ApiRequest): Promise<ApiResponse> {
    return this.list(request);
  }

  /** Adds the paginator's query parameters (as OpenAPI parameters) to what OPTIONS answers. */
  override async metadata(request: ApiRequest): Promise<ViewMetadata> {
    const metadata = await super.metadata(request);
    const paginator = this.paginator;
    if (paginator === null) return metadata;
    return {
      ...metadata,
      pagination: {
        style: paginator.constructor.name,
        parameters: paginator.getSchemaOperationParameters(this),
      },
    };
  }

  /** `GET` lists: the paginator's parameters and envelope, then the filters' parameters. */
  override describeOperation(method: OperationMethod): DescribedOperation {
    if (method !== 'get') return super.describeOperation(method);
    return this.describeList();
  }

  /**
   * The `list` operation of the OpenAPI document.
   * @example
   * new ArticleList().describeList().pagination // the view's paginator, or null
   */
  describeList(): DescribedOperation {
    return {
      ...super.describeOperation('get'),
      action: 'list',
      list: true,
      pagination: this.paginator,
      parameters: this.filterBackends.flatMap(
        (backend) => backend.getSchemaOperationParameters?.(this) ?? [],
      ),
    };
  }

  override controlsHtml(): string {
    const paginator = this.#paginator;
    return paginator?.displayPageControls ? paginator.toHtml() : '';
  }

  /**
   * A route handler making a fresh view per request. The row type comes from the `queryset`
   * (or from a subclass's `ListView<Row>`), so a serializer needs no annotation and `ordering`
   * and `orderingFields` are checked against the row's fields.
   *
   * @example
   * ListView.asView({ queryset: fromArray(articles), serializer: (row) => ({ ...row, url: urlOf(row) }) })
   */
  static override asView<Row, V extends ApiView, S extends ViewSchema = ViewSchema>(
    this: new (
      options?: ListViewOptions<Row>,
    ) => V,
    options?: ListViewOptions<Row, S>,
  ): RouteHandler;
  static override asView(this: new (options?: unknown) => ApiView, options?: unknown): RouteHandler {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass being routed, as in ApiView.asView
    return ApiView.asView.call(this, options);
  }
}
