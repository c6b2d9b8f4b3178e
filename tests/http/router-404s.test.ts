// Issue 32, item 7: every path DRF's DefaultRouter routes reaches a view, so its 404s carry the
// view's `Vary` and `Allow` as DRF's do, errors included; only a path no route has is answered by
// the route table (DRF: Django's own 404, from no view, without either header). On every binding.

import { fromArray } from '@pagewise/memory-adapter';
import { DefaultRouter, ReadOnlyModelViewSet, Routes } from '@pagewise/rest';
import { expect, it } from 'vitest';
import { describeBindings, send, useServer } from './bindings.js';

class ArticleViewSet extends ReadOnlyModelViewSet<{ id: number; title: string }> {
  override paginationClass = null;
  override queryset = fromArray([{ id: 1, title: 't1' }]);
}

const routes = new DefaultRouter()
  .register('articles', ArticleViewSet, { basename: 'article' })
  .addTo(new Routes(), '/api');

describeBindings("the router's 404s", (binding) => {
  const get = useServer(binding, { routes });

  it('paths DRF routes to a view answer with the view: Vary and Allow on the 404', async () => {
    for (const [path, detail, allow] of [
      ['/api/articles/1.5/', 'Not found.', 'GET, HEAD, OPTIONS'],
      ['/api/articles/1.xml', 'Not found.', 'GET, HEAD, OPTIONS'],
      ['/api/articles.xml/', 'Not found.', 'GET, HEAD, OPTIONS'],
      ['/api/articles/2/', 'No Article matches the given query.', 'GET, HEAD, OPTIONS'],
      ['/api/articles/2.json', 'No Article matches the given query.', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const answer = await send(get().server, path);
      expect([path, answer.status, answer.json()]).toEqual([path, 404, { detail }]);
      expect([path, answer.headers.get('vary'), answer.headers.get('allow')]).toEqual([
        path,
        'Accept',
        allow,
      ]);
    }
  });

  it('a path no route has is the table’s own 404: no view, so no Allow (Django answers it without either)', async () => {
    for (const path of ['/api/nope/', '/api/articles', '/nope/']) {
      const answer = await send(get().server, path);
      expect([path, answer.status, answer.json()]).toEqual([path, 404, { detail: 'Not found.' }]);
      expect([path, answer.headers.get('allow'), answer.headers.get('vary')]).toEqual([path, null, null]);
    }
  });
});
