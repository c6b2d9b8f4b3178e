import { linkHeader } from '@pagewise/core';
import { describe, expect, test } from 'vitest';
import { ApiResponse, toWire } from './api-response.js';

/** A paginated response as the paginators make it: the page's `Link` header among its deferred headers. */
function paginatedResponse(data: object, next: string | null, previous: string | null): ApiResponse {
  const link = linkHeader(next, previous);
  return link === null ? new ApiResponse(data) : new ApiResponse(data, { headers: { link } });
}

// A paginated response makes its `Headers` only when someone reads them or writes it: the Link
// header must be there either way, and in the order headers were set.
describe('ApiResponse headers', () => {
  test('a Link set before the headers are made is in them, and on the wire', () => {
    const response = paginatedResponse({ results: [] }, 'http://t/?page=3', 'http://t/?page=1');
    const link = '<http://t/?page=3>; rel="next", <http://t/?page=1>; rel="prev"';
    expect(toWire(response, 'GET').headers.get('link')).toBe(link);
    expect(response.headers.get('link')).toBe(link);
    response.headers.set('x-later', '1');
    expect(toWire(response, 'GET').headers.get('x-later')).toBe('1');
    expect(toWire(response, 'GET').headers.get('link')).toBe(link);
  });

  test('no Link without links, and a response without headers writes its own', () => {
    const response = paginatedResponse({ results: [] }, null, null);
    const wire = toWire(response, 'GET');
    expect(wire.headers.get('link')).toBeNull();
    expect(wire.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-type')).toBeNull();
    expect(response.headers).toBe(response.headers);
  });

  test('given headers are copied when the response is made, and bad ones refused there', () => {
    const init: Record<string, string> = { vary: 'Accept' };
    const response = new ApiResponse({}, { headers: init });
    init.vary = 'Cookie';
    expect(response.headers.get('vary')).toBe('Accept');
    expect(() => new ApiResponse({}, { headers: { 'bad name': 'x' } })).toThrow(TypeError);
  });

  test('deferred headers are written as given until read, then follow the Headers made of them', () => {
    const response = paginatedResponse({ results: [] }, 'http://t/?page=2', null);
    expect(toWire(response, 'GET').headers.get('link')).toBe('<http://t/?page=2>; rel="next"');
    response.headers.set('Link', '<http://t/?page=9>; rel="next"');
    expect(toWire(response, 'GET').headers.get('link')).toBe('<http://t/?page=9>; rel="next"');
    expect(response.toFetchResponse().headers.get('link')).toBe('<http://t/?page=9>; rel="next"');
  });
});

// The fetch Response leaves Content-Length to the runtime, which counts what it sends; a HEAD
// answer has no body to count, so it carries its GET's length.
describe('ApiResponse.toFetchResponse', () => {
  for (const made of [false, true]) {
    test(`the same answer whether or not the headers were read first (${made ? 'read' : 'never read'})`, async () => {
      const make = () => {
        const response = paginatedResponse({ name: 'café' }, 'http://t/?page=2', null);
        if (made) expect(response.headers.get('link')).toBe('<http://t/?page=2>; rel="next"');
        return response;
      };
      const get = make().toFetchResponse('GET');
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('application/json');
      expect(get.headers.get('link')).toBe('<http://t/?page=2>; rel="next"');
      expect(get.headers.get('content-length')).toBeNull();
      expect(await get.text()).toBe('{"name":"café"}');
      const head = make().toFetchResponse('HEAD');
      expect(head.headers.get('content-length')).toBe('16');
      expect(await head.text()).toBe('');
      expect(make().toFetchResponse('HEAD').headers.get('link')).toBe('<http://t/?page=2>; rel="next"');
    });
  }

  test('a string body with its own Content-Type is sent as it is; 204 has neither body nor length', async () => {
    const html = new ApiResponse('<p>hi</p>', { headers: { 'content-type': 'text/html' } }).toFetchResponse();
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toBe('<p>hi</p>');
    const empty = new ApiResponse(null, { status: 204 }).toFetchResponse();
    expect(empty.headers.get('content-length')).toBeNull();
    expect(await empty.text()).toBe('');
  });
});
