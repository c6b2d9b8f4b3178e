import type { OrderedQuery, OrderingInput } from '@pagewise/core';
import type { JsonSchema, OpenApiParameter, SchemaOptions } from '../openapi/schema-types.js';
import type { ApiRequest } from '../request/api-request.js';
import type { ApiResponse } from '../request/api-response.js';

/** Something that can choose an ordering for a request (an ordering filter). */
export interface OrderingSource {
  getOrdering(request: ApiRequest, query: OrderedQuery<unknown>, view: PaginationView): OrderingInput | null;
}

/** What paginators may look at on the view that calls them. */
export interface PaginationView {
  /** Filter backends; cursor pagination takes its ordering from the first with `getOrdering`. */
  readonly filterBackends?: ReadonlyArray<OrderingSource | (new () => OrderingSource) | object>;
}

/** The response envelope of a paginated list: `{ results }` plus whatever the style adds. */
export interface PaginatedData {
  readonly results: unknown[];
  readonly [key: string]: unknown;
}

/**
 * The base of every pagination style (DRF's `BasePagination`). A custom style extends it and
 * overrides `paginateQueryset` and `getPaginatedResponse`.
 *
 * `paginateQueryset` remembers the page it produced so that the synchronous methods
 * (`getPaginatedResponse`, `getNextLink`, `toHtml`, ...) can answer for it; each call replaces
 * that page entirely, so nothing leaks from one request into the next, but one instance serves
 * one request at a time. Views make one paginator per request; `paginate()` on the built-in
 * styles is the stateless form, safe to share.
 */
export abstract class BasePagination {
  // An accessor over a private field: the built-in styles freeze their instances (options), and
  // the two-step API still records this per request.
  #displayPageControls = false;

  /** Whether a browsable page should show the controls of the last page. @default false */
  get displayPageControls(): boolean {
    return this.#displayPageControls;
  }

  set displayPageControls(value: boolean) {
    this.#displayPageControls = value;
  }

  /** The rows of this request's page, or `null` when this request is not paginated. */
  abstract paginateQueryset<Row>(
    query: OrderedQuery<Row>,
    request: ApiRequest,
    view?: PaginationView,
  ): Promise<Row[] | null>;

  /** The paginated response for the serialized rows of the last page. */
  abstract getPaginatedResponse(data: unknown[]): ApiResponse;

  /** The response schema for a list whose items are described by `schema`. @default schema unchanged */
  getPaginatedResponseSchema(schema: JsonSchema, _options?: SchemaOptions): JsonSchema {
    return schema;
  }

  /** OpenAPI parameters the style reads. @default [] */
  getSchemaOperationParameters(_view?: unknown): OpenApiParameter[] {
    return [];
  }

  /** @default null */
  getNextLink(): string | null {
    return null;
  }

  /** @default null */
  getPreviousLink(): string | null {
    return null;
  }

  /** Context of the html controls. @default {} */
  getHtmlContext(): object {
    return {};
  }

  /** The html controls. @default '' */
  toHtml(): string {
    return '';
  }

  /** Where the list is inside the envelope (used by renderers). */
  getResults(data: PaginatedData): unknown[] {
    return data.results;
  }
}
