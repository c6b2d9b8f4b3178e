import { ApiRequest, positiveInt, removeQueryParam, replaceQueryParam } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

describe('replaceQueryParam (DRF replace_query_param, section 0.2)', () => {
  it.each([
    ['http://testserver/?q=a%20b&x=1/2&z=%C3%A9&page=3', 'http://testserver/?page=5&q=a+b&x=1%2F2&z=%C3%A9'],
    ['http://testserver/?b=2&a=1&a=0#frag', 'http://testserver/?a=1&a=0&b=2&page=5#frag'],
    ['http://testserver/path;p?x=a+b&flag&e=', 'http://testserver/path;p?e=&flag=&page=5&x=a+b'],
    ['http://testserver/?%7E=1&c=%2B', 'http://testserver/?c=%2B&page=5&~=1'],
  ])('%s + page=5', (url, expected) => {
    expect(replaceQueryParam(url, 'page', 5)).toBe(expected);
  });

  it.each([
    ['http://testserver/?q=%FF', 'http://testserver/?page=2&q=%EF%BF%BD'],
    ['http://testserver/?q=%E2%82', 'http://testserver/?page=2&q=%EF%BF%BD'],
    ['http://testserver/?q=%', 'http://testserver/?page=2&q=%25'],
    ['http://testserver/?q=%zz', 'http://testserver/?page=2&q=%25zz'],
    ['http://testserver/?a=1;b=2', 'http://testserver/?a=1%3Bb%3D2&page=2'],
    ['http://testserver/?q=a%2Bb+c', 'http://testserver/?page=2&q=a%2Bb+c'],
  ])('malformed escapes and separators like Python: %s', (url, expected) => {
    expect(replaceQueryParam(url, 'page', 2)).toBe(expected);
  });

  it('drops every earlier value of the key', () => {
    expect(replaceQueryParam('http://testserver/?page=1&page=2', 'page', 5)).toBe(
      'http://testserver/?page=5',
    );
  });

  it('adds the key to a URL without a query', () => {
    expect(replaceQueryParam('http://testserver/', 'page', 2)).toBe('http://testserver/?page=2');
  });

  it('sorts keys by code point: uppercase before lowercase, ~ after letters', () => {
    expect(replaceQueryParam('http://testserver/?b=1&B=2&~a=3&a=4', 'page', 2)).toBe(
      'http://testserver/?B=2&a=4&b=1&page=2&~a=3',
    );
  });

  it('encodes values form-style (quote_plus)', () => {
    expect(replaceQueryParam('http://testserver/', 'q', 'a b/c:d+e=f~g_h.i-j')).toBe(
      'http://testserver/?q=a+b%2Fc%3Ad%2Be%3Df~g_h.i-j',
    );
    expect(replaceQueryParam('http://testserver/', 'q', 'é€')).toBe('http://testserver/?q=%C3%A9%E2%82%AC');
  });

  it('keeps the scheme and host as written (urlsplit): their case and an explicit port (issue 32)', () => {
    // DRF 3.18's replace_query_param / remove_query_param on the same URLs.
    expect(replaceQueryParam('http://API.Example.com/?page=1', 'page', 2)).toBe(
      'http://API.Example.com/?page=2',
    );
    expect(removeQueryParam('http://Example.com:80/a/?page=1&b=2', 'page')).toBe(
      'http://Example.com:80/a/?b=2',
    );
    expect(replaceQueryParam('HTTP://API.Example.com:443/x', 'page', 3)).toBe(
      'http://API.Example.com:443/x?page=3',
    );
  });

  it('keeps the order of the values within one key', () => {
    expect(replaceQueryParam('http://testserver/?x=2&page=1&x=1', 'page', 3)).toBe(
      'http://testserver/?page=3&x=2&x=1',
    );
  });
});

describe('removeQueryParam (DRF remove_query_param, section 0.3)', () => {
  it('removing the only parameter leaves no ?', () => {
    expect(removeQueryParam('http://testserver/?page=1&page=2', 'page')).toBe('http://testserver/');
  });

  it('keeps and sorts the other parameters', () => {
    expect(removeQueryParam('http://testserver/?page=3&filter=even&b=', 'page')).toBe(
      'http://testserver/?b=&filter=even',
    );
  });

  it('normalises the query even when the key is absent', () => {
    expect(removeQueryParam('http://testserver/?b=a%20b&a=1/2&flag', 'page')).toBe(
      'http://testserver/?a=1%2F2&b=a+b&flag=',
    );
  });

  it('keeps the fragment', () => {
    expect(removeQueryParam('http://testserver/?page=2&a=1#top', 'page')).toBe('http://testserver/?a=1#top');
  });
});

describe('_positive_int (section 0.5)', () => {
  it.each([
    [' 10 ', 10],
    ['\t7\n', 7],
    ['+10', 10],
    ['0010', 10],
    ['1_0', 10],
    ['１０', 10],
    ['٣', 3],
    ['5', 5],
  ])('accepts %j as %d', (text, value) => {
    expect(positiveInt(text)).toBe(value);
    expect(positiveInt(text, { strict: true })).toBe(value);
  });

  it.each(['', ' ', '10.0', '1e3', '0x10', '10abc', '_10', '10_', '1__0', 'abc', '-1', '-10', ' -3 '])(
    'rejects %j',
    (text) => {
      expect(() => positiveInt(text)).toThrow(RangeError);
      expect(() => positiveInt(text, { strict: true })).toThrow(RangeError);
    },
  );

  it('rejects zero only when strict', () => {
    expect(positiveInt('0')).toBe(0);
    expect(positiveInt('-0')).toBe(0);
    expect(() => positiveInt('0', { strict: true })).toThrow(RangeError);
    expect(() => positiveInt('-0', { strict: true })).toThrow(RangeError);
  });

  it('clamps to a truthy cutoff and never rejects above it', () => {
    expect(positiveInt('1000', { cutoff: 20 })).toBe(20);
    expect(positiveInt('20', { cutoff: 20 })).toBe(20);
    expect(positiveInt('19', { cutoff: 20 })).toBe(19);
    expect(positiveInt('99999999999999999999999', { strict: true, cutoff: 15 })).toBe(15);
  });

  it('a cutoff of 0 or null does not clamp', () => {
    expect(positiveInt('1000', { cutoff: 0 })).toBe(1000);
    expect(positiveInt('1000', { cutoff: null })).toBe(1000);
  });
});

describe('query parameter reads (QueryDict, section 0.4)', () => {
  const params = (query: string) => new ApiRequest({ url: `http://testserver/${query}` }).queryParams;

  it('answers the last value of a repeated key', () => {
    expect(params('?page=2&page=3').get('page')).toBe('3');
    expect(params('?page=3&page=').get('page')).toBe('');
  });

  it('answers null when absent and "" for a bare or empty key', () => {
    expect(params('?a=1').get('page')).toBeNull();
    expect(params('?page').get('page')).toBe('');
    expect(params('?page=').get('page')).toBe('');
  });

  it('decodes form-style', () => {
    expect(params('?q=a+b%2Fc').get('q')).toBe('a b/c');
    expect(params('?q=%C3%A9').get('q')).toBe('é');
  });
});
