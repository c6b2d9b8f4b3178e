import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoDatabaseHandle, ensureSeeded, openDatabase } from '../src/database.js';
import { type RunningDemo, serveDemo } from './harness.js';

// The stock SqliteDialect prepares every query anew; a cursor page's statement (a UNION ALL of two
// ranges) costs SQLite 25 us or more to prepare, every page. The demo is what users copy: its SQLite
// database prepares each SQL text once.
describe('demo on SQLite: each SQL text is prepared once', () => {
  let dir: string;
  let handle: DemoDatabaseHandle;
  let demo: RunningDemo;
  const prepared: string[] = [];
  const prototype = SQLite.prototype as unknown as { prepare(this: unknown, sql: string): unknown };
  const realPrepare = prototype.prepare;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagewise-demo-statements-'));
    handle = await openDatabase(undefined, join(dir, 'demo.sqlite'));
    await ensureSeeded(handle, 300);
    demo = await serveDemo(handle, 'path');
    prototype.prepare = function prepare(sql: string) {
      prepared.push(sql);
      return realPrepare.call(this, sql);
    };
  });

  afterAll(async () => {
    prototype.prepare = realPrepare;
    await demo?.close();
    await handle?.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks the feed with one prepare per distinct statement', async () => {
    let url: string | null = `${demo.base}/v1/articles/feed/?page_size=20`;
    const ids: number[] = [];
    let pages = 0;
    while (url !== null) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { next: string | null; results: Array<{ id: number }> };
      ids.push(...body.results.map((article) => article.id));
      url = body.next;
      pages += 1;
    }
    expect(pages).toBe(15);
    expect(new Set(ids).size).toBe(300);
    // The first page's statement and the one every later page shares: no text twice.
    expect(prepared.length).toBeGreaterThan(0);
    expect(prepared.length).toBe(new Set(prepared).size);
    expect(prepared.length).toBeLessThan(pages);
  });
});
