import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiRequest } from '../request/api-request.js';
import { ApiSettings } from '../settings.js';
import { BaseVersioning } from '../versioning/base-versioning.js';
import { NamespaceVersioning } from '../versioning/namespace-versioning.js';
import { QueryParameterVersioning } from '../versioning/query-parameter-versioning.js';
import { URLPathVersioning } from '../versioning/url-path-versioning.js';
import { plainReverse, reverse } from './reverse.js';
import { NoReverseMatch, Routes } from './routes.js';

// DRF's TestNamespaceVersioningHyperlinkedRelatedFieldScheme URLconf.
const included = (routes: Routes) =>
  routes
    .add('/namespaced/:pk(\\d+)/', 'namespaced')
    .include('/nested', 'nested-namespace', (nested) => nested.add('/namespaced/:pk(\\d+)/', 'nested'));
const routes = new Routes()
  .include('/v1', 'v1', included)
  .include('/v2', 'v2', included)
  .add('/non-api/:pk(\\d+)/', 'non-api-view')
  .add('/view', 'view')
  .add('/another/', 'another')
  .add('/:version/another/', 'another');

function requestWith(scheme: BaseVersioning | null, version: string | null, url = 'http://testserver/') {
  const request = new ApiRequest({ url });
  request.routes = routes;
  request.versioningScheme = scheme;
  request.version = version;
  return request;
}

class MockVersioningScheme extends BaseVersioning {
  constructor(readonly raiseError = false) {
    super();
  }
  override reverse(): string {
    if (this.raiseError) throw new NoReverseMatch('no');
    return 'http://scheme-reversed/view';
  }
}

describe('reverse (DRF tests/test_reverse.py)', () => {
  it('reversed URLs are fully qualified', () => {
    expect(reverse('view', { request: requestWith(null, null) })).toBe('http://testserver/view');
  });

  it('the versioning scheme reverses', () => {
    expect(reverse('view', { request: requestWith(new MockVersioningScheme(), null) })).toBe(
      'http://scheme-reversed/view',
    );
  });

  it('falls back to the plain reverse on NoReverseMatch', () => {
    expect(reverse('view', { request: requestWith(new MockVersioningScheme(true), null) })).toBe(
      'http://testserver/view',
    );
  });

  it('without a request: a path; without routes: a configuration error', () => {
    expect(reverse('non-api-view', { routes, args: [3] })).toBe('/non-api/3/');
    expect(() => plainReverse('view')).toThrow(ConfigurationError);
  });

  it('other errors of a scheme are not swallowed', () => {
    class Broken extends BaseVersioning {
      override reverse(): string {
        throw new TypeError('broken');
      }
    }
    expect(() => reverse('view', { request: requestWith(new Broken(), 'v1') })).toThrow(TypeError);
  });
});

describe('NamespaceVersioning hyperlinks (DRF 5.5)', () => {
  const link = (name: string, version: string, pk: number) =>
    reverse(name, { kwargs: { pk }, request: requestWith(new NamespaceVersioning(), version) });

  it('v1 and v2', () => {
    expect(link('namespaced', 'v1', 3)).toBe('http://testserver/v1/namespaced/3/');
    expect(link('namespaced', 'v2', 5)).toBe('http://testserver/v2/namespaced/5/');
  });

  it('nested namespace', () => {
    expect(link('nested', 'v1:nested-namespace', 3)).toBe('http://testserver/v1/nested/namespaced/3/');
  });

  it('non-API URLs regardless of the version', () => {
    expect(link('non-api-view', 'v1', 10)).toBe('http://testserver/non-api/10/');
    expect(link('non-api-view', 'v2', 10)).toBe('http://testserver/non-api/10/');
  });

  it('getVersionedViewname', () => {
    expect(new NamespaceVersioning().getVersionedViewname('x', requestWith(null, 'v1'))).toBe('v1:x');
  });
});

describe('scheme reverse', () => {
  it('URL path: a caller-supplied version wins', () => {
    const request = requestWith(new URLPathVersioning(), 'v1');
    expect(reverse('another', { request })).toBe('http://testserver/v1/another/');
    expect(reverse('another', { request, kwargs: { version: 'v7' } })).toBe('http://testserver/v7/another/');
  });

  it('URL path: a route without the version parameter falls back to the plain reverse', () => {
    const request = requestWith(new URLPathVersioning(), 'v1');
    expect(reverse('non-api-view', { request, kwargs: { pk: 3 } })).toBe('http://testserver/non-api/3/');
    expect(reverse('non-api-view', { request, args: [4] })).toBe('http://testserver/non-api/4/');
  });

  it('query parameter: replaces any version already in the URL, keeps ?format=', () => {
    const request = requestWith(
      new QueryParameterVersioning(),
      'v2',
      'http://testserver/x/?format=json&version=v2',
    );
    expect(reverse('another', { request })).toBe('http://testserver/another/?format=json&version=v2');
  });

  it('the format override parameter comes from the settings', () => {
    const settings = new ApiSettings({ urlFormatOverride: 'fmt' });
    const request = requestWith(null, null, 'http://testserver/?fmt=api&format=json');
    expect(reverse('another', { request, settings })).toBe('http://testserver/another/?fmt=api');
    expect(reverse('another', { request, settings: new ApiSettings({ urlFormatOverride: null }) })).toBe(
      'http://testserver/another/',
    );
  });
});

describe('reverse per serialized row', () => {
  it('the origin read once per URL follows a request URL changed afterwards', () => {
    const request = requestWith(null, null, 'http://testserver/x/');
    expect(reverse('non-api-view', { request, kwargs: { pk: 1 } })).toBe('http://testserver/non-api/1/');
    request.url.host = 'other.example:8080';
    expect(reverse('non-api-view', { request, kwargs: { pk: 2 } })).toBe(
      'http://other.example:8080/non-api/2/',
    );
    request.url.protocol = 'https:';
    expect(reverse('another', { request })).toBe('https://other.example:8080/another/');
  });

  it('a request-like object without the origin memo is read through its URL', () => {
    const request = {
      url: new URL('http://plain.example/'),
      queryParams: new URLSearchParams(),
      routes,
      versioningScheme: null,
      version: null,
    };
    expect(reverse('another', { request: request as unknown as ApiRequest })).toBe(
      'http://plain.example/another/',
    );
  });

  it('only own keyword arguments count: inherited ones neither match nor fill a route', () => {
    const inherited = Object.assign(Object.create({ extra: 'x' }) as Record<string, number>, { pk: 3 });
    expect(reverse('non-api-view', { routes, kwargs: inherited })).toBe('/non-api/3/');
    const onlyInherited = Object.create({ pk: 3 }) as Record<string, number>;
    expect(() => reverse('non-api-view', { routes, kwargs: onlyInherited })).toThrow(NoReverseMatch);
    expect(() => reverse('non-api-view', { routes, kwargs: { pk: 3, extra: 1 } })).toThrow(NoReverseMatch);
  });

  it('routes tried in turn: the first whose parameters fit, each piece in order', () => {
    const table = new Routes()
      .add('/a/:x(\\d+)/b/:y/', 'two')
      .add('/c/:x/', 'two')
      .add('/:lang(en|fr)/:slug/', 'page');
    expect(plainReverse('two', { routes: table, kwargs: { x: 1, y: 'z' } })).toBe('/a/1/b/z/');
    expect(plainReverse('two', { routes: table, kwargs: { x: 'q' } })).toBe('/c/q/');
    expect(plainReverse('two', { routes: table, args: ['7', 'w'] })).toBe('/a/7/b/w/');
    expect(plainReverse('page', { routes: table, kwargs: { lang: 'fr', slug: 'é t' } })).toBe(
      '/fr/%C3%A9%20t/',
    );
    expect(() => plainReverse('page', { routes: table, kwargs: { lang: 'de', slug: 'x' } })).toThrow(
      NoReverseMatch,
    );
  });
});
