import type { OrderedQuery } from '@pagewise/core';
import {
  ConfigurationError,
  type FieldErrors,
  isApiError,
  isConfigurationError,
  NotFound,
  ValidationError,
} from '@pagewise/core';
import {
  isPerVersionSchema,
  type SchemaInput,
  schemaToJson,
  type ViewSchema,
} from '../openapi/schema-source.js';
import type { JsonSchema } from '../openapi/schema-types.js';
import {
  type DescribedOperation,
  describeWith,
  type OperationMethod,
  type ViewDescription,
  type ViewSchemaContext,
} from '../openapi/view-description.js';
import { type ApiRequest, cloneApiRequest } from '../request/api-request.js';
import { ApiResponse } from '../request/api-response.js';
import type { RouteHandler } from '../routes/routes.js';
import { ApiView, MethodNotAllowed, type ViewMetadata } from './api-view.js';
import { ListView, type ListViewOptions } from './list-view.js';
import { readRequestData } from './request-data.js';
import { type FieldMetadata, serializerInfo } from './simple-metadata.js';

/**
 * The actions a router maps HTTP methods to (DRF's mixin actions, camelCased).
 *
 * @example
 * const action: ViewSetAction = 'partialUpdate';
 */
export type ViewSetAction = 'list' | 'retrieve' | 'create' | 'update' | 'partialUpdate' | 'destroy';

/** Every action, in the order a router maps them. */
export const VIEW_SET_ACTIONS: readonly ViewSetAction[] = Object.freeze([
  'list',
  'retrieve',
  'create',
  'update',
  'partialUpdate',
  'destroy',
]);

/**
 * Which action answers which method on one route, DRF's `as_view({'get': 'list'})`.
 *
 * @example
 * const detail: ActionMap = { get: 'retrieve', put: 'update', patch: 'partialUpdate', delete: 'destroy' };
 */
export type ActionMap = Readonly<Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', string>>>;

/**
 * What the write hooks are told besides the data.
 *
 * @example
 * validate: (data, { partial }) => (partial ? data : { ...data, active: true })
 */
export interface WriteContext<Row> {
  readonly request: ApiRequest;
  readonly view: GenericViewSet<Row>;
  /** `true` for `partialUpdate` (PATCH): absent fields keep their values. */
  readonly partial: boolean;
  /** The row being updated, `null` when creating. */
  readonly instance: Row | null;
}

/** Values to write, as the validation hook answers them. */
export type WriteValues = Readonly<Record<string, unknown>>;

/**
 * Options of the viewsets; each may also be set as a field of a subclass.
 *
 * @example
 * ModelViewSet.actions({ get: 'list' }, { queryset, writableFields: ['name', 'email'] })
 */
export interface ViewSetOptions<Row, S extends ViewSchema = ViewSchema> extends ListViewOptions<Row, S> {
  /** The field a detail route looks rows up by, and its path keyword. @default 'id' */
  lookupField?: string;
  /** The router's basename of the route (`article`), DRF's `basename`. @default null */
  basename?: string | null;
  /** Whether the route is a detail route (a router sets it), DRF's `detail`. @default null */
  detail?: boolean | null;
  /**
   * The name of what a row is, for the 404 of a missing one: `No Article matches the given
   * query.` (DRF names the queryset's model). @default the basename in PascalCase, else the class
   * name without `ViewSet`
   */
  modelName?: string | null;
  /**
   * Fields a client may write. The default validation takes only these from the body, requires
   * each of them on `create` and `update` (not on `partialUpdate`) and refuses values that are
   * not JSON scalars, answering 400 with DRF-style field errors. @default null (writes need `validate`)
   */
  writableFields?: readonly string[] | null;
  /**
   * Turns the body into the values to write, after the `writableFields` checks; throw
   * `ValidationError({ field: ['message'] })` for a 400 with field errors. @default the checked values
   */
  validate?(data: WriteValues, context: WriteContext<Row>): WriteValues | Promise<WriteValues>;
  /** Saves a new row. @default the adapter's `insert` */
  performCreate?(values: WriteValues, context: WriteContext<Row>): Row | Promise<Row>;
  /** Saves changes to `context.instance`. @default the adapter's `update` by `lookupField` */
  performUpdate?(values: WriteValues, context: WriteContext<Row>): Row | Promise<Row>;
  /** Deletes `context.instance`. @default the adapter's `delete` by `lookupField` */
  performDestroy?(context: WriteContext<Row>): void | Promise<void>;
}

const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'boolean']);

/** `blog-post`, `blog_post` and `blog post` as `BlogPost`. */
function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** A JSON number written without a fraction or an exponent: Python's `json.loads` makes an `int` of it. */
const JSON_INTEGER = /^\s*-?\d+\s*$/;

/**
 * The name of the Python type `json.loads` makes of a body that is not an object (DRF's
 * `type(data).__name__`): `str`, `int` or `float` (by how the number is written), `bool`, `list`.
 */
function pythonTypeName(value: unknown, text: string): string {
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return JSON_INTEGER.test(text) ? 'int' : 'float';
    default:
      return 'dict';
  }
}

/** What `actions` needs of a viewset instance, whatever its row type. */
interface RoutableViewSet {
  actionMap: ActionMap;
  configure(options: object): RoutableViewSet;
  dispatch(request: ApiRequest): Promise<ApiResponse>;
  describeSchema(context: ViewSchemaContext): ViewDescription;
}

/**
 * DRF's `GenericViewSet`: the machinery of `ListView` (queryset, filters, pagination,
 * serializer, versioning, negotiation) plus a lookup by `lookupField` for detail actions, with
 * no actions routed of its own. A router maps methods to actions (`list`, `retrieve`, `create`,
 * `update`, `partialUpdate`, `destroy`, declared in `actionNames` or defined by a subclass); a
 * method without an action is 405 with `Allow`. `list` paginates automatically; `retrieve`
 * answers 404 `No Article matches the given query.` (`notFound()`) when the row is absent, and
 * `Not found.` when the path value cannot be of the column's type (`abc` for an integer key).
 *
 * @example
 * class ArticleViewSet extends GenericViewSet<Article> {
 *   override queryset = fromArray(articles);
 *   override async retrieve(request: ApiRequest) { return this.serialize(await this.getObject(request), request); }
 * }
 * new SimpleRouter().register('articles', ArticleViewSet); // only article-detail is routed
 */
export class GenericViewSet<Row = unknown, S extends ViewSchema = ViewSchema> extends ListView<Row, S> {
  /** Actions routed without being defined by a subclass. @default [] */
  static readonly actionNames: readonly ViewSetAction[] = [];
  /** @default 'id' */
  lookupField = 'id';
  /** The router's basename of the route being answered. @default null */
  basename: string | null = null;
  /** Whether the route being answered is a detail route; `null` outside a router. @default null */
  detail: boolean | null = null;
  /**
   * What a row is called in the 404 of a missing one (DRF: the model's name).
   * @default null: the basename in PascalCase (`blog-post` is `BlogPost`), else the class name without `ViewSet`
   */
  modelName: string | null = null;
  /** @default null */
  writableFields: readonly string[] | null = null;
  validate?: ViewSetOptions<Row>['validate'];
  performCreate?: ViewSetOptions<Row>['performCreate'];
  performUpdate?: ViewSetOptions<Row>['performUpdate'];
  performDestroy?: ViewSetOptions<Row>['performDestroy'];
  /** The methods of the route being answered. */
  actionMap: ActionMap = {};
  /** The action of this request (`'list'`, `'retrieve'`, ...), `null` before dispatch. */
  action: string | null = null;

  constructor(options: ViewSetOptions<Row, S> = {}) {
    super(options);
    this.configure(options);
  }

  /**
   * A route handler answering the methods of `actionMap` with their actions (DRF's
   * `as_view(actions)`), with a fresh viewset per request.
   *
   * @example
   * routes.add('/authors/', 'author-list', AuthorViewSet.actions({ get: 'list', post: 'create' }));
   */
  static actions<V extends RoutableViewSet, O>(
    this: new (
      options?: O,
    ) => V,
    actionMap: ActionMap,
    options?: O,
  ): RouteHandler {
    const frozen = Object.freeze({ ...actionMap });
    const makeView = () => {
      const view = new this(options).configure(options ?? {});
      view.actionMap = frozen;
      return view;
    };
    return describeWith(
      (request: ApiRequest) => makeView().dispatch(request),
      (context) => makeView().describeSchema(context),
    );
  }

  /**
   * The operation of one method of the route: its action's (`list` paginates, `create` answers
   * 201, `destroy` 204, writes take a body of the `writableFields`).
   */
  override describeOperation(method: OperationMethod): DescribedOperation {
    const action = (this.actionMap as Record<string, string | undefined>)[method] ?? method;
    if (action === 'list') return this.describeList();
    // Not ListView's: its GET is the list, a detail route's is not.
    const item: DescribedOperation = { ...ApiView.prototype.describeOperation.call(this, method), action };
    const body = (partial: boolean) => ({ fields: this.writableFields, partial });
    switch (action) {
      case 'retrieve':
        return item;
      case 'create':
        return { ...item, status: 201, requestBody: body(false) };
      case 'update':
        return { ...item, requestBody: body(false) };
      case 'partialUpdate':
        return { ...item, requestBody: body(true) };
      case 'destroy':
        return { ...item, status: 204, schema: undefined };
      default:
        return item;
    }
  }

  /** The methods of the route's action map. */
  override handledMethods(): string[] {
    return Object.keys(this.actionMap).map((method) => method.toUpperCase());
  }

  override async handle(request: ApiRequest): Promise<unknown> {
    if (request.method === 'OPTIONS') return this.metadata(request);
    const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
    const action = (this.actionMap as Record<string, string | undefined>)[method];
    const handler = action === undefined ? undefined : (this as unknown as Record<string, unknown>)[action];
    if (typeof handler !== 'function') throw new MethodNotAllowed(request.method);
    this.action = action!;
    return handler.call(this, request);
  }

  /**
   * DRF's `SimpleMetadata` of a generic view: `actions` lists the fields a `POST` (or a `PUT` on a
   * detail route) takes, for each of those this user may send (`checkPermissions` and, for `PUT`,
   * `getObject` pass on a copy of the request with that method). A route whose GET lists adds its
   * pagination parameters (Pagewise's `pagination` key); a detail route does not paginate.
   */
  override async metadata(request: ApiRequest): Promise<ViewMetadata> {
    const base =
      this.actionMap.get === 'list'
        ? await super.metadata(request)
        : await ApiView.prototype.metadata.call(this, request);
    const actions = await this.determineActions(request);
    if (Object.keys(actions).length === 0) return base;
    const { name, description, renders, parses, ...rest } = base;
    return { name, description, renders, parses, actions, ...rest };
  }

  /** DRF's `determine_actions`: the writes (`POST`, `PUT`) of this route the user may send, with their fields. */
  async determineActions(request: ApiRequest): Promise<Record<string, Record<string, FieldMetadata>>> {
    const allowed = this.allowedMethods();
    const actions: Record<string, Record<string, FieldMetadata>> = {};
    for (const method of ['POST', 'PUT']) {
      if (!allowed.includes(method)) continue;
      const clone = cloneApiRequest(request, method);
      try {
        await this.checkPermissions(clone);
        if (method === 'PUT') await this.getObject(clone);
      } catch (error) {
        if (isApiError(error)) continue;
        throw error;
      }
      actions[method] = this.serializerInfo(clone);
    }
    return actions;
  }

  /**
   * DRF's `get_serializer_info`: the fields of the item `schema` (of the request's version, through
   * the serving bundle's `schema` changes) with
   * their metadata, read-only unless listed in `writableFields`; a schema that cannot be read as
   * JSON Schema, or none, lists `writableFields` alone.
   */
  serializerInfo(request: ApiRequest): Record<string, FieldMetadata> {
    const schema: ViewSchema | undefined = this.schema;
    const input: SchemaInput | undefined = isPerVersionSchema(schema)
      ? request.version === null
        ? undefined
        : schema.versions[request.version]
      : schema;
    let json: JsonSchema | null = null;
    if (input !== undefined) {
      try {
        json = schemaToJson(input, '3.1');
      } catch (error) {
        if (!isConfigurationError(error)) throw error;
      }
    }
    // Under a bundle, the fields of the request's version, as its OpenAPI document shows them.
    if (json !== null && this.servingBundle !== null && request.version !== null) {
      json = this.servingBundle.convertSchema(json, { version: request.version, openapi: '3.1' });
    }
    return serializerInfo(json, this.writableFields);
  }

  /** The query detail actions look rows up in: the queryset, filtered. */
  async getLookupQuery(request: ApiRequest): Promise<OrderedQuery<Row>> {
    return this.filterQueryset(await this.getQueryset(request), request);
  }

  /** The path value of this request's lookup. */
  lookupValue(request: ApiRequest): string {
    const value = request.params[this.lookupField];
    if (value === undefined) {
      throw new ConfigurationError(
        `${this.constructor.name}: the route has no :${this.lookupField} parameter; route it with a router, ` +
          `or name the path parameter after lookupField`,
      );
    }
    return value;
  }

  /**
   * The 404 of a row that is not there, DRF 3.15's (Django's `get_object_or_404` message):
   * `No Article matches the given query.`, with `modelName`, else the basename in PascalCase, else
   * the class name without `ViewSet`; `Not found.` when there is no name at all.
   * @example
   * new ArticleViewSet({ modelName: 'Article' }).notFound().detail // 'No Article matches the given query.'
   */
  notFound(): NotFound {
    const name =
      this.modelName ??
      (this.basename ? pascalCase(this.basename) : null) ??
      this.constructor.name.replace(/(?:ViewSet|View)$/, '');
    return name ? new NotFound(`No ${name} matches the given query.`) : new NotFound();
  }

  /**
   * DRF's `get_object`: the row of the filtered queryset whose `lookupField` is the path value;
   * 404 `No Article matches the given query.` (`notFound()`) when there is none, and DRF's bare
   * `Not found.` when the adapter says the value cannot be of the field's type (`accepts`).
   */
  async getObject(request: ApiRequest): Promise<Row> {
    const query = await this.getLookupQuery(request);
    if (typeof query.find !== 'function') {
      throw new ConfigurationError(
        `${this.constructor.name}: the ${query.adapter} adapter cannot look rows up (no find()); ` +
          'use an adapter with find(), or override getObject()',
      );
    }
    const value = this.lookupValue(request);
    // DRF 3.15's get_object_or_404: a value the field's type cannot hold (int('abc') raises
    // ValueError) is a bare Http404, 'Not found.'; only a well-formed key no row has names the model.
    if (query.accepts !== undefined && !(await query.accepts(this.lookupField, value))) throw new NotFound();
    const row = await query.find(this.lookupField, value);
    if (row === null) throw this.notFound();
    return row;
  }

  /** DRF's `RetrieveModelMixin.retrieve`. */
  async retrieve(request: ApiRequest): Promise<ApiResponse> {
    return new ApiResponse(this.versionItem(this.serialize(await this.getObject(request), request), request));
  }

  /**
   * The values a write may use: the body checked against `writableFields` (400 with field errors),
   * then the `validate` hook. Without either, writes are a configuration mistake.
   */
  async validateData(request: ApiRequest, context: WriteContext<Row>): Promise<WriteValues> {
    if (this.writableFields === null && this.validate === undefined) {
      throw new ConfigurationError(
        `${this.constructor.name}: writes need writableFields or a validate hook (nothing is written ` +
          'unchecked)',
      );
    }
    const data = await readRequestData(request);
    // DRF's serializer errors, in Python's words: JSON null is "No data provided".
    if (data === null) throw new ValidationError({ non_field_errors: ['No data provided'] });
    if (typeof data !== 'object' || Array.isArray(data)) {
      const datatype = pythonTypeName(data, await request.text());
      throw new ValidationError({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${datatype}.`],
      });
    }
    // An older version's body as the newest version reads it: validation (and its field errors)
    // speaks the newest version's field names.
    let values = this.versionRequestBody(data as WriteValues, request);
    if (this.writableFields !== null) {
      const errors: Record<string, string[]> = {};
      const picked: Record<string, unknown> = {};
      for (const field of this.writableFields) {
        if (!Object.hasOwn(values, field)) {
          if (!context.partial) errors[field] = ['This field is required.'];
          continue;
        }
        const value = values[field];
        if (value !== null && !SCALAR_TYPES.has(typeof value)) errors[field] = ['Not a valid value.'];
        else picked[field] = value;
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors as FieldErrors);
      values = picked;
    }
    return this.validate ? this.validate(values, context) : values;
  }

  /** The query writes go through, with the adapter method a default needs. */
  async #writable<K extends 'insert' | 'update' | 'delete'>(
    request: ApiRequest,
    method: K,
    hook: string,
  ): Promise<Required<Pick<OrderedQuery<Row>, K>>> {
    const query = await this.getQueryset(request);
    if (typeof query[method] !== 'function') {
      throw new ConfigurationError(
        `${this.constructor.name}: the ${query.adapter} adapter cannot ${method} rows; give the viewset ` +
          `a ${hook} hook`,
      );
    }
    return query as unknown as Required<Pick<OrderedQuery<Row>, K>>;
  }

  /** The 2xx answer of a write: the row serialized, with `Location` when it has a `url`. */
  #written(row: Row, request: ApiRequest, status: number): ApiResponse {
    const data = this.versionItem(this.serialize(row, request), request);
    const url = (data as { url?: unknown } | null)?.url;
    return new ApiResponse(data, {
      status,
      headers: status === 201 && typeof url === 'string' ? { location: url } : {},
    });
  }

  /** DRF's `CreateModelMixin.create`: 201 with the new row. */
  async create(request: ApiRequest): Promise<ApiResponse> {
    const context: WriteContext<Row> = { request, view: this, partial: false, instance: null };
    const values = await this.validateData(request, context);
    const row = this.performCreate
      ? await this.performCreate(values, context)
      : await (await this.#writable(request, 'insert', 'performCreate')).insert(values);
    return this.#written(row, request, 201);
  }

  /** DRF's `UpdateModelMixin.update` (PUT; `partialUpdate` is PATCH). */
  async update(request: ApiRequest, partial = false): Promise<ApiResponse> {
    const instance = await this.getObject(request);
    const context: WriteContext<Row> = { request, view: this, partial, instance };
    const values = await this.validateData(request, context);
    let row: Row | null;
    if (this.performUpdate) row = await this.performUpdate(values, context);
    else {
      const query = await this.#writable(request, 'update', 'performUpdate');
      row = await query.update(this.lookupField, this.lookupValue(request), values);
    }
    if (row === null) throw this.notFound();
    return this.#written(row, request, 200);
  }

  /** DRF's `UpdateModelMixin.partial_update`. */
  partialUpdate(request: ApiRequest): Promise<ApiResponse> {
    return this.update(request, true);
  }

  /** DRF's `DestroyModelMixin.destroy`: 204 without a body. */
  async destroy(request: ApiRequest): Promise<ApiResponse> {
    const instance = await this.getObject(request);
    const context: WriteContext<Row> = { request, view: this, partial: false, instance };
    if (this.performDestroy) await this.performDestroy(context);
    else {
      const query = await this.#writable(request, 'delete', 'performDestroy');
      await query.delete(this.lookupField, this.lookupValue(request));
    }
    return new ApiResponse(null, { status: 204 });
  }
}

/**
 * DRF's `ReadOnlyModelViewSet`: `list` and `retrieve`.
 *
 * @example
 * class ArticleViewSet extends ReadOnlyModelViewSet<Article> {
 *   override queryset = fromKysely(db.selectFrom('articles').selectAll().orderBy('id'), { db });
 * }
 * const router = new DefaultRouter().register('articles', ArticleViewSet, { basename: 'article' });
 */
export class ReadOnlyModelViewSet<Row = unknown, S extends ViewSchema = ViewSchema> extends GenericViewSet<
  Row,
  S
> {
  static override readonly actionNames: readonly ViewSetAction[] = ['list', 'retrieve'];
}

/**
 * DRF's `ModelViewSet`: `list`, `retrieve`, `create`, `update`, `partialUpdate`, `destroy`. Over
 * an adapter that writes (Kysely with `db`), the defaults insert, update and delete through the
 * builder's table; the `perform*` hooks replace them. Bodies are checked by `writableFields`
 * and the `validate` hook (400 with field errors).
 *
 * @example
 * class AuthorViewSet extends ModelViewSet<Author> {
 *   override queryset = fromKysely(db.selectFrom('authors').selectAll().orderBy('id'), { db });
 *   override writableFields = ['name', 'email'];
 * }
 */
export class ModelViewSet<Row = unknown, S extends ViewSchema = ViewSchema> extends GenericViewSet<Row, S> {
  static override readonly actionNames: readonly ViewSetAction[] = VIEW_SET_ACTIONS;
}
