// Issue 36 §2: the page functions take `publicOrigin`, as @pagewise/rest's bindings do: the links
// are put on it, whatever origin the request URL (built from a client's Host) names.
import { ConfigurationError, cursorPage, limitOffsetPage, pageNumberPage } from '@pagewise/core';
import { fromArray } from '@pagewise/memory-adapter';
import { describe, expect, it } from 'vitest';

const rows = Array.from({ length: 9 }, (_, i) => ({ id: i + 1 }));
const query = () => fromArray(rows, { uniqueKey: 'id' });
const FROM_HOST = 'http://evil.example:8080/api/items/?page_size=2&x=%C3%A9';
const publicOrigin = 'https://api.example.org';

describe('publicOrigin on the page functions', () => {
  it('every style builds its links on it, keeping the request path and query', async () => {
    const pages = [
      await cursorPage(query(), FROM_HOST, {
        pageSize: 2,
        ordering: 'id',
        pageSizeQueryParam: 'page_size',
        publicOrigin,
      }),
      await pageNumberPage(query(), new URL(FROM_HOST), {
        pageSize: 2,
        pageSizeQueryParam: 'page_size',
        publicOrigin,
      }),
      (await limitOffsetPage(query(), FROM_HOST, { defaultLimit: 2, publicOrigin }))!,
    ];
    for (const page of pages) {
      expect(page.next!.startsWith('https://api.example.org/api/items/?')).toBe(true);
      expect(page.next).toContain('x=%C3%A9');
      expect(JSON.stringify(page.headers)).not.toContain('evil.example');
    }
    // A path on the public origin is not a prefix: the request's path is the page's.
    const withPath = await pageNumberPage(query(), FROM_HOST, {
      pageSize: 2,
      publicOrigin: 'https://api.example.org/v9/',
    });
    expect(withPath.next).toBe('https://api.example.org/api/items/?page=2&page_size=2&x=%C3%A9');
    // Without it, the URL's own origin, as before.
    expect((await pageNumberPage(query(), FROM_HOST, { pageSize: 2 })).next).toMatch(
      /^http:\/\/evil\.example:8080\//,
    );
  });

  it('refuses a public origin that is not an absolute http(s) URL', async () => {
    for (const bad of ['api.example.org', '/api', 'ftp://api.example.org', '']) {
      await expect(pageNumberPage(query(), FROM_HOST, { pageSize: 2, publicOrigin: bad })).rejects.toThrow(
        ConfigurationError,
      );
    }
  });
});
