// The example of docs/versioning.md, "Versions as code", answers what the page says it answers.
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiSettings,
  CursorPagination,
  createFetchHandler,
  HeaderVersioning,
  ModelViewSet,
  Routes,
  SimpleRouter,
  versionBundle,
  versionChange,
} from '@pagewise/rest';
import { expect, test } from 'vitest';

interface Article {
  id: number;
  headline: string;
  summary: string;
  text: string;
}

const splitBody = versionChange({
  description: 'Articles have one `body` instead of `summary` and `text`.',
  response: ({ summary, text, ...rest }: Article) => ({ ...rest, body: `${summary}\n\n${text}` }),
  request: ({ body, ...rest }) => {
    if (typeof body !== 'string') return rest;
    const [summary = '', ...text] = body.split('\n\n');
    return { ...rest, summary, text: text.join('\n\n') };
  },
});
const dataEnvelope = versionChange({
  description: 'Lists hold their items in `data` instead of `results`.',
  envelope: ({ results, ...rest }: { results: unknown[] }) => ({ ...rest, data: results }),
});
const versions = versionBundle({
  versions: [
    { version: '2026-01-10', changes: [splitBody] },
    { version: '2025-11-15', changes: [dataEnvelope] },
    { version: '2025-06-01' },
  ],
});
const apiKeys = new Map([['key-2025', '2025-07-04']]);
const settings = new ApiSettings({
  versionBundle: versions,
  defaultVersioningClass: HeaderVersioning,
  defaultVersion: (request) => apiKeys.get(request.headers.get('authorization') ?? '') ?? null,
});
class ById extends CursorPagination {
  override pageSize = 20;
  override ordering = 'id';
}
class ArticleViewSet extends ModelViewSet<Article> {
  override queryset = fromArray<Article>([{ id: 1, headline: 'Hello', summary: 'Short.', text: 'Long.' }]);
  override paginationClass = ById;
  override writableFields = ['headline', 'summary', 'text'];
}

const routes = new Routes();
new SimpleRouter()
  .register('articles', ArticleViewSet, { basename: 'article', options: { settings } })
  .addTo(routes);
const handle = createFetchHandler({ routes, allowedHosts: ['example.org'] });
const get = async (headers: Record<string, string>) => {
  const response = await handle(new Request('http://example.org/articles/', { headers }));
  return [response.status, response.headers.get('api-version'), await response.text()];
};

test('one request per version, with the body the page shows', async () => {
  expect(await get({ 'api-version': '2026-01-10' })).toEqual([
    200,
    '2026-01-10',
    '{"next":null,"previous":null,"results":[{"id":1,"headline":"Hello","summary":"Short.","text":"Long."}]}',
  ]);
  expect(await get({ 'api-version': '2025-12-25' })).toEqual([
    200,
    '2025-11-15',
    '{"next":null,"previous":null,"results":[{"id":1,"headline":"Hello","body":"Short.\\n\\nLong."}]}',
  ]);
  expect(await get({ authorization: 'key-2025' })).toEqual([
    200,
    '2025-06-01',
    '{"next":null,"previous":null,"data":[{"id":1,"headline":"Hello","body":"Short.\\n\\nLong."}]}',
  ]);
  expect(await get({ 'api-version': '2025-01-01' })).toEqual([
    404,
    null,
    '{"detail":"Invalid version in \\"Api-Version\\" header."}',
  ]);
});

test('an old client that sent no body: field errors with the newest names', async () => {
  const response = await handle(
    new Request('http://example.org/articles/', {
      method: 'POST',
      headers: { 'api-version': '2025-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ headline: 'New' }),
    }),
  );
  expect([response.status, await response.json()]).toEqual([
    400,
    { summary: ['This field is required.'], text: ['This field is required.'] },
  ]);
});
