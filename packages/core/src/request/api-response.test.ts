import { describe, expect, test } from 'vitest';
import { paginatedResponse } from '../pagination/base-pagination.js';
import { ApiResponse, toWire } from './api-response.js';

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
});
