// One cursor feed through DRF's layer: a `ListView` with `CursorPagination` behind the Hono binding,
// over SQLite through the Kysely adapter.

import { fromKysely } from '@pagewise/kysely-adapter';
import { type ApiResponse, CursorPagination, ListView, type OrderedQuery, Routes } from '@pagewise/rest';
import { createHonoHandler } from '@pagewise/rest/hono';
import { Hono } from 'hono';
import { type Item, itemsDb } from './items-db.js';

const db = await itemsDb();

class Feed extends CursorPagination {
  override pageSize = 20;
  override ordering = '-created';
}

const dataPath = (globalThis as { __pagewiseDataPath?: (on: boolean) => void }).__pagewiseDataPath;

/** The feed's view; its data path runs from building the query to the paginated response. */
class Items extends ListView<Item> {
  override paginationClass = Feed;
  override async getQueryset(): Promise<OrderedQuery<Item>> {
    dataPath?.(true);
    return fromKysely(db.selectFrom('items').selectAll(), { db });
  }
  override getPaginatedResponse(data: unknown[]): ApiResponse {
    const response = super.getPaginatedResponse(data);
    dataPath?.(false);
    return response;
  }
}

const routes = new Routes();
routes.add('/items', 'items', Items.asView());
const app = new Hono();
app.use('*', createHonoHandler({ routes, allowedHosts: ['localhost'] }));

export async function serve(url: string): Promise<{ next: string; results: unknown[] }> {
  const response = await app.fetch(new Request(url));
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { next: string; results: unknown[] };
}
