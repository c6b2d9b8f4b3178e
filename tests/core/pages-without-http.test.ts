// The page functions without HTTP (issue 13) are pagination/ alone: importing them brings no
// request, response, link, HTML, OpenAPI or view module, and no paginator class.
import * as root from '@pagewise/core';
import { connectionFromQuery, paginateCursor, streamRows } from '@pagewise/core/pagination';
import { describe, expect, it } from 'vitest';
import { bundle } from '../support/bundle.js';

describe('paginateCursor, streamRows and connectionFromQuery', () => {
  it('are the root’s own functions, from @pagewise/core/pagination too', () => {
    expect([paginateCursor, streamRows, connectionFromQuery]).toEqual([
      root.paginateCursor,
      root.streamRows,
      root.connectionFromQuery,
    ]);
  });

  it('bundle without the web layer or a paginator class', async ({ annotate }) => {
    const { bytes, modules } = await bundle(
      "export { paginateCursor, streamRows, connectionFromQuery } from '@pagewise/core';",
      { minify: true },
    );
    const core = modules.filter((path) => !path.includes('node_modules'));
    // Nothing of the request layer: two-cursor windows are cut by the database, not by code-point order.
    expect(core.filter((path) => !path.startsWith('pagination/')).sort()).toEqual(['errors.ts']);
    expect(core).not.toContain('pagination/cursor-pagination.ts');
    expect(core).not.toContain('pagination/page-style.ts');
    await annotate(`the three functions: ${bytes} bytes minified, ${modules.length} modules`);
  });
});
