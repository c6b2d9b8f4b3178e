// The page functions without HTTP (issue 13) are the engine alone: importing them brings no request,
// response, link, HTML, OpenAPI or view module, and no paginator class.
import * as engine from '@pagewise/core';
import { connectionFromQuery, paginateCursor, streamRows } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { bundle } from '../support/bundle.js';

describe('paginateCursor, streamRows and connectionFromQuery', () => {
  it('are the engine’s own functions, from @pagewise/rest too', () => {
    expect([paginateCursor, streamRows, connectionFromQuery]).toEqual([
      engine.paginateCursor,
      engine.streamRows,
      engine.connectionFromQuery,
    ]);
  });

  it('bundle without the web layer or a paginator class', async ({ annotate }) => {
    const { bytes, modules } = await bundle(
      "export { paginateCursor, streamRows, connectionFromQuery } from '@pagewise/core';",
      { minify: true },
    );
    const own = modules.filter((path) => !path.includes('node_modules'));
    expect(own.filter((path) => !path.startsWith('core/'))).toEqual([]);
    // Nothing of the URL layer either: two-cursor windows are cut by the database, not by code-point order.
    expect(own.filter((path) => path.startsWith('core/url/') || path.startsWith('core/pages/'))).toEqual([]);
    await annotate(`the three functions: ${bytes} bytes minified, ${modules.length} modules`);
  });
});
