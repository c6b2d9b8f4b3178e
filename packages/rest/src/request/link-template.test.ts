import { LinkTemplate, QueryParams } from '@pagewise/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ApiRequest } from './api-request.js';

// A request's links are made from the query it already parsed: they must be the links a
// LinkTemplate parsing the absolute URL again gives, for any URL and query.
const queryText = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('cursor', 'page', 'a', 'b', ''), fc.string({ unit: 'binary', maxLength: 6 })),
      fc.option(fc.string({ unit: 'binary', maxLength: 8 })),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => (v === null ? encodeURIComponent(k) : `${k}=${v}`)).join('&'));
const url = fc
  .tuple(
    fc.constantFrom('http://testserver', 'https://API.example.org:443', 'http://u:p@[::1]:8080', 'http://h'),
    fc.constantFrom('', '/', '/items/', '/a%2e%2e/./b', '/é x', '//double'),
    queryText,
    fc.constantFrom('', '#frag'),
  )
  .map(([origin, path, query, hash]) => `${origin}${path}${query === '' ? '' : `?${query}`}${hash}`);

describe('LinkTemplate from a parsed URL', () => {
  test('a request links as a template of its absolute URL does', () => {
    fc.assert(
      fc.property(
        url,
        fc.constantFrom('cursor', 'page', 'a', 'zz', ''),
        fc.option(fc.string()),
        (text, key, value) => {
          const request = new ApiRequest({ url: text });
          const absolute = request.buildAbsoluteUri();
          const expected = new LinkTemplate(absolute);
          const template = request.linkTemplate();
          expect(template.with(key, value)).toBe(expected.with(key, value));
          expect(template.with(key, value)).toBe(expected.with(key, value));
          expect(request.linkTemplate(absolute).with(key, null)).toBe(expected.with(key, null));
        },
      ),
    );
  });

  test('a URL that is not the request own, or a changed request URL, is parsed again', () => {
    const request = new ApiRequest({ url: 'http://testserver/items?page=2&a=1' });
    expect(request.linkTemplate('http://other/x?b=2').with('page', 3)).toBe('http://other/x?b=2&page=3');
    request.url.search = '?page=9&c=3';
    expect(request.linkTemplate().with('page', 3)).toBe('http://testserver/items?c=3&page=3');
  });

  test('parts and pairs give the same links as the URL they came from', () => {
    fc.assert(
      fc.property(queryText, fc.constantFrom('page', 'b', ''), (query, key) => {
        const base = 'http://testserver/items/';
        const reparsed = new LinkTemplate(`${base}?${query}`);
        const search = new URL(`${base}?${query}`).search;
        const parsed = new LinkTemplate({ base, query: new QueryParams(search).entries() });
        expect(parsed.with(key, 7)).toBe(reparsed.with(key, 7));
        expect(parsed.with(key, null)).toBe(reparsed.with(key, null));
      }),
    );
  });
});
