import { NumberedPages } from '@pagewise/core';

/** Options of `Paginator`: how it counts (`count`, `countCache`), Django's `orphans` and `allowEmptyFirstPage`. */
export type PaginatorOptions = NonNullable<ConstructorParameters<typeof NumberedPages>[2]>;

/** One numbered page as `Paginator.page` answers it. */
export type HostPage<Row> = Awaited<ReturnType<NumberedPages<Row>['page']>>;

/**
 * Django's `Paginator`, the host paginator DRF's `PageNumberPagination` splits a query with (its
 * `django_paginator_class`): the engine's `NumberedPages` under Django's name. It is made per
 * request (it caches the count). A subclass may override `count()`; pass it as
 * `hostPaginatorClass`.
 *
 * @example
 * const paginator = new Paginator(fromArray(rows), 10);
 * const page = await paginator.page(await paginator.validateNumber('2'));
 */
export class Paginator<Row> extends NumberedPages<Row> {}
