// One cursor feed through the engine alone: `cursorPage` in a user's own Hono route, over SQLite
// through the Kysely adapter. The same table and page as the DRF scenario.
import { type CursorPageOptions, cursorPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Hono } from 'hono';
import { itemsDb } from './items-db.js';

const db = await itemsDb();
const feed: CursorPageOptions = { pageSize: 20, ordering: '-created' };
const app = new Hono();
const dataPath = (globalThis as { __pagewiseDataPath?: (on: boolean) => void }).__pagewiseDataPath;
app.get('/items', async (c) => {
  dataPath?.(true);
  const page = await cursorPage(fromKysely(db.selectFrom('items').selectAll(), { db }), c.req.url, feed);
  const body = page.body(page.rows);
  dataPath?.(false);
  return c.json(body, 200, page.headers);
});

export async function serve(url: string): Promise<{ next: string; results: unknown[] }> {
  const response = await app.fetch(new Request(url));
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { next: string; results: unknown[] };
}
