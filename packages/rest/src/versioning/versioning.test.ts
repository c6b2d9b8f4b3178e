import { NotAcceptable, NotFound } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiRequest } from '../request/api-request.js';
import { ApiSettings } from '../settings.js';
import { AcceptHeaderVersioning } from './accept-header-versioning.js';
import { BaseVersioning } from './base-versioning.js';
import { HostNameVersioning } from './host-name-versioning.js';
import { NamespaceVersioning } from './namespace-versioning.js';
import { QueryParameterVersioning } from './query-parameter-versioning.js';
import { URLPathVersioning } from './url-path-versioning.js';

const request = (
  url: string,
  init: { headers?: Record<string, string>; namespace?: string; version?: string } = {},
) => new ApiRequest({ url, ...init });

describe('isAllowedVersion (DRF 5.2)', () => {
  it('anything when allowedVersions is null or empty', () => {
    expect(new BaseVersioning().isAllowedVersion('x')).toBe(true);
    expect(new BaseVersioning({ allowedVersions: [] }).isAllowedVersion(null)).toBe(true);
  });

  it('the listed versions and the default (when not null)', () => {
    const scheme = new BaseVersioning({ allowedVersions: ['v1'], defaultVersion: 'v2' });
    expect([
      scheme.isAllowedVersion('v1'),
      scheme.isAllowedVersion('v2'),
      scheme.isAllowedVersion('v3'),
    ]).toEqual([true, true, false]);
    expect(scheme.isAllowedVersion(null)).toBe(false);
    expect(new BaseVersioning({ allowedVersions: ['v1', null] }).isAllowedVersion(null)).toBe(true);
  });
});

describe('options and settings', () => {
  it('omitted options come from the settings', () => {
    const settings = new ApiSettings({
      defaultVersion: 'v1',
      allowedVersions: ['v1', 'v2'],
      versionParam: 'api',
    });
    const scheme = new QueryParameterVersioning({ settings });
    expect([scheme.defaultVersion, scheme.allowedVersions, scheme.versionParam]).toEqual([
      'v1',
      ['v1', 'v2'],
      'api',
    ]);
    expect(scheme.determineVersion(request('http://testserver/?api=v2'))).toBe('v2');
    expect(new QueryParameterVersioning({ settings, defaultVersion: null }).defaultVersion).toBeNull();
  });

  it('withOptions presets options on a subclass', () => {
    const Preset = URLPathVersioning.withOptions({ allowedVersions: ['v1'] });
    const scheme = new Preset({ settings: ApiSettings.defaults });
    expect(scheme).toBeInstanceOf(URLPathVersioning);
    expect(() => scheme.determineVersion(request('http://testserver/'), { version: 'v2' })).toThrow(NotFound);
  });

  it('the base scheme has no source of its own', () => {
    expect(() => new BaseVersioning().determineVersion(request('http://testserver/'))).toThrow(
      'determineVersion() must be implemented.',
    );
  });
});

describe('AcceptHeaderVersioning', () => {
  const scheme = new AcceptHeaderVersioning({ allowedVersions: ['1', '2'], defaultVersion: '1' });

  it('reads the negotiated media type when the view negotiated', () => {
    const negotiated = request('http://testserver/', { headers: { accept: 'text/html' } });
    negotiated.acceptedMediaType = 'application/json;version=2';
    expect(scheme.determineVersion(negotiated)).toBe('2');
  });

  it('negotiates by itself otherwise', () => {
    expect(
      scheme.determineVersion(request('http://testserver/', { headers: { accept: '*/*; version=2' } })),
    ).toBe('2');
    expect(scheme.determineVersion(request('http://testserver/'))).toBe('1');
  });

  it('406 for a version that is not allowed, with DRF message', () => {
    const bad = request('http://testserver/', { headers: { accept: 'application/json; version=3' } });
    expect(() => scheme.determineVersion(bad)).toThrow(NotAcceptable);
    expect(() => scheme.determineVersion(bad)).toThrow('Invalid version in "Accept" header.');
  });

  it('varies on Accept', () => {
    expect(scheme.varyHeaders).toEqual(['Accept']);
  });
});

describe('URLPathVersioning', () => {
  it('reads params, defaulting to request.params', () => {
    const scheme = new URLPathVersioning();
    expect(scheme.determineVersion(request('http://testserver/'), { version: 'v3' })).toBe('v3');
    const routed = new ApiRequest({ url: 'http://testserver/v4/', params: { version: 'v4' } });
    expect(scheme.determineVersion(routed)).toBe('v4');
    expect(scheme.determineVersion(request('http://testserver/'))).toBeNull();
  });

  it('404 Invalid version in URL path.', () => {
    const scheme = new URLPathVersioning({ allowedVersions: ['v1'] });
    expect(() => scheme.determineVersion(request('http://testserver/'), { version: 'v2' })).toThrow(
      'Invalid version in URL path.',
    );
  });
});

describe('NamespaceVersioning', () => {
  it('no namespace: the default, unchecked (DRF)', () => {
    const scheme = new NamespaceVersioning({ allowedVersions: ['v1'], defaultVersion: 'v9' });
    expect(scheme.determineVersion(request('http://testserver/'))).toBe('v9');
  });

  it('nested namespaces: the first allowed component', () => {
    const nested = request('http://testserver/', { namespace: 'v1:nested-namespace' });
    expect(new NamespaceVersioning().determineVersion(nested)).toBe('v1');
    expect(new NamespaceVersioning({ allowedVersions: ['nested-namespace'] }).determineVersion(nested)).toBe(
      'nested-namespace',
    );
  });

  it('none allowed: 404 even with a default version', () => {
    const scheme = new NamespaceVersioning({ allowedVersions: ['v1'], defaultVersion: 'v2' });
    expect(() => scheme.determineVersion(request('http://testserver/', { namespace: 'v3' }))).toThrow(
      'Invalid version in URL path. Does not match any version namespace.',
    );
  });
});

describe('HostNameVersioning', () => {
  const versionOf = (host: string, scheme = new HostNameVersioning()) =>
    scheme.determineVersion(request(`http://${host}/`));

  it('DRF default regex: exactly three alphanumeric labels', () => {
    expect(versionOf('v1.example.org')).toBe('v1');
    expect(versionOf('v1.example.org:8000')).toBe('v1');
    expect(versionOf('www.example.com')).toBe('www');
    for (const host of ['testserver', '127.0.0.1', 'v1.api.example.org', 'my-v1.example.org']) {
      expect(versionOf(host)).toBeNull();
    }
  });

  it('a custom regex', () => {
    expect(versionOf('api-v2.example.org', new HostNameVersioning({ hostnameRegex: /^api-(v\d+)\./ }))).toBe(
      'v2',
    );
  });

  it('404 Invalid version in hostname.', () => {
    expect(() => versionOf('v3.example.org', new HostNameVersioning({ allowedVersions: ['v1'] }))).toThrow(
      'Invalid version in hostname.',
    );
  });
});

describe('QueryParameterVersioning', () => {
  it('absent -> default; empty -> "" (a 404 when versions are restricted)', () => {
    expect(
      new QueryParameterVersioning({ defaultVersion: 'v1' }).determineVersion(request('http://t/')),
    ).toBe('v1');
    expect(new QueryParameterVersioning().determineVersion(request('http://t/?version='))).toBe('');
    expect(() =>
      new QueryParameterVersioning({ allowedVersions: ['v1'] }).determineVersion(
        request('http://t/?version='),
      ),
    ).toThrow('Invalid version in query parameter.');
  });
});

describe('withOptions on a scheme with its own options', () => {
  it('presets hostnameRegex', () => {
    const Preset = HostNameVersioning.withOptions({ hostnameRegex: /^api-(v\d)\./ });
    expect(new Preset().determineVersion(request('http://api-v2.example.org/'))).toBe('v2');
  });
});
