import { ConfigurationError, NotFound } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiRequest } from '../request/api-request.js';
import { plainReverse } from '../routes/reverse.js';
import { Routes } from '../routes/routes.js';
import { ApiSettings } from '../settings.js';
import { versionBundle } from '../version-bundle.js';
import { HeaderVersioning } from './header-versioning.js';
import { QueryParameterVersioning } from './query-parameter-versioning.js';
import { URLPathVersioning } from './url-path-versioning.js';

const bundle = versionBundle({
  versions: [{ version: '2026-01-10' }, { version: '2025-11-15' }, { version: '2025-06-01' }],
});
const request = (headers: Record<string, string> = {}, url = 'http://testserver/articles/') =>
  new ApiRequest({ url, headers });

describe('HeaderVersioning', () => {
  it('reads Api-Version; a missing header is the default version (DRF rule)', () => {
    const scheme = new HeaderVersioning({ allowedVersions: ['v1', 'v2'], defaultVersion: 'v1' });
    expect(scheme.determineVersion(request({ 'api-version': 'v2' }))).toBe('v2');
    expect(scheme.determineVersion(request())).toBe('v1');
    expect(new HeaderVersioning().determineVersion(request())).toBeNull();
  });

  it('refuses with a 404 naming the header, and varies on it', () => {
    const scheme = HeaderVersioning.withOptions({ header: 'Stripe-Version', allowedVersions: ['v1'] });
    const made = new scheme();
    expect(made.varyHeaders).toEqual(['Stripe-Version']);
    expect(made.versionResponseHeader).toBe('Stripe-Version');
    expect(() => made.determineVersion(request({ 'stripe-version': 'v9' }))).toThrow(NotFound);
    expect(() => made.determineVersion(request({ 'stripe-version': 'v9' }))).toThrow(
      'Invalid version in "Stripe-Version" header.',
    );
  });

  it('reverse is the plain reverse: URLs carry no version', () => {
    const routes = new Routes().add('/articles/', 'article-list', () => null);
    const scheme = new HeaderVersioning();
    const req = request({ 'api-version': 'v2' });
    req.routes = routes;
    req.version = 'v2';
    expect(scheme.reverse('article-list', { request: req })).toBe(
      plainReverse('article-list', { request: req }),
    );
    expect(scheme.reverse('article-list', { request: req })).not.toContain('v2');
  });

  it('documents a header parameter', () => {
    const versioning = new HeaderVersioning({
      header: 'X-GitHub-Api-Version',
      versionBundle: bundle,
    }).schemaVersioning(null);
    expect([versioning.location, versioning.param, versioning.versions]).toEqual([
      'header',
      'X-GitHub-Api-Version',
      bundle.versions,
    ]);
  });
});

describe('schemes under a bundle', () => {
  it('allowedVersions and defaultVersion come from the bundle unless set', () => {
    const scheme = new QueryParameterVersioning({ versionBundle: bundle });
    expect([scheme.allowedVersions, scheme.defaultVersion]).toEqual([bundle.versions, '2026-01-10']);
    const fromSettings = new URLPathVersioning({ settings: new ApiSettings({ versionBundle: bundle }) });
    expect(fromSettings.defaultVersion).toBe('2026-01-10');
    const set = new URLPathVersioning({
      versionBundle: bundle,
      allowedVersions: ['2025-11-15'],
      defaultVersion: '2025-11-15',
    });
    expect([set.isAllowedVersion('2025-12-25'), set.isAllowedVersion('2026-01-10')]).toEqual([true, false]);
  });

  it('a view option wins over the settings', () => {
    const other = versionBundle({ versions: [{ version: '2020-01-01' }] });
    const scheme = new URLPathVersioning({
      settings: new ApiSettings({ versionBundle: bundle }),
      versionBundle: other,
    });
    expect(scheme.versionBundle).toBe(other);
  });

  it('an explicit allowedVersions must be a subset of the bundle; a default it cannot serve is refused', () => {
    expect(
      () => new URLPathVersioning({ versionBundle: bundle, allowedVersions: ['2025-11-15', 'v1'] }),
    ).toThrow(ConfigurationError);
    expect(() => new URLPathVersioning({ versionBundle: bundle, defaultVersion: '2020-01-01' })).toThrow(
      ConfigurationError,
    );
  });

  it('a date between versions is allowed and served by the earlier one; before the oldest is not', () => {
    const scheme = new URLPathVersioning({ versionBundle: bundle });
    expect(scheme.determineVersion(request(), { version: '2025-12-25' })).toBe('2025-12-25');
    expect(scheme.servedVersion('2025-12-25')).toBe('2025-11-15');
    expect(() => scheme.determineVersion(request(), { version: '2025-01-01' })).toThrow(
      'Invalid version in URL path.',
    );
    expect(() => scheme.determineVersion(request(), { version: '2025-02-30' })).toThrow(NotFound);
  });
});
