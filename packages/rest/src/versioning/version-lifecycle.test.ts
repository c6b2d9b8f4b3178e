import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiSettings } from '../settings.js';
import { AcceptHeaderVersioning } from './accept-header-versioning.js';
import { BaseVersioning } from './base-versioning.js';
import { HostNameVersioning } from './host-name-versioning.js';
import { NamespaceVersioning } from './namespace-versioning.js';
import { QueryParameterVersioning } from './query-parameter-versioning.js';
import { URLPathVersioning } from './url-path-versioning.js';

const V1 = { deprecated: '2026-06-01', sunset: '2027-01-01T12:00:00Z', link: 'https://example.org/v1' };
const at = (iso: string) => () => new Date(iso);

describe('lifecycle option', () => {
  it('every scheme takes it and exposes it frozen as `lifecycle`', () => {
    for (const Scheme of [
      AcceptHeaderVersioning,
      URLPathVersioning,
      NamespaceVersioning,
      HostNameVersioning,
      QueryParameterVersioning,
    ]) {
      const scheme = new Scheme({ lifecycle: { v1: V1 } });
      expect(scheme.lifecycle?.v1).toEqual(V1);
      expect(scheme.lifecycle?.v1?.deprecated).toBe('2026-06-01');
      expect(scheme.lifecycle?.v2).toBeUndefined();
      expect(Object.isFrozen(scheme.lifecycle)).toBe(true);
      expect(Object.isFrozen(scheme.lifecycle?.v1)).toBe(true);
    }
    expect(new BaseVersioning().lifecycle).toBeNull();
  });

  it("a copy: changing the caller's object later changes nothing", () => {
    const input = { v1: { ...V1 } };
    const scheme = new BaseVersioning({ lifecycle: input });
    input.v1.sunset = '2020-01-01';
    expect(scheme.lifecycle?.v1?.sunset).toBe('2027-01-01T12:00:00Z');
  });

  it('inherited names are not versions', () => {
    const scheme = new BaseVersioning({ lifecycle: { v1: V1 } });
    expect(scheme.lifecycle?.toString).toBeUndefined();
    expect(scheme.versionStatus('constructor')).toBeNull();
  });

  it('comes from the settings when the option is omitted; the option wins', () => {
    const settings = new ApiSettings({ lifecycle: { v1: V1 }, now: at('2026-07-01T00:00:00Z') });
    expect(new URLPathVersioning({ settings }).lifecycle?.v1).toEqual(V1);
    expect(new URLPathVersioning({ settings }).versionStatus('v1')?.deprecated).toBe(true);
    expect(new URLPathVersioning({ settings, lifecycle: {} }).lifecycle?.v1).toBeUndefined();
    expect(settings.lifecycle?.v1).toEqual(V1);
    expect(Object.isFrozen(settings.lifecycle)).toBe(true);
  });

  it('read once: schemes made per request share the checked map of the settings or the preset', () => {
    const settings = new ApiSettings({ lifecycle: { v1: V1 } });
    expect(new URLPathVersioning({ settings }).lifecycle).toBe(settings.lifecycle);
    const input = { v1: { ...V1 } };
    const Preset = URLPathVersioning.withOptions({ lifecycle: input });
    input.v1.sunset = '2020-01-01';
    expect(new Preset().lifecycle).toBe(new Preset().lifecycle);
    expect(new Preset().lifecycle?.v1?.sunset).toBe('2027-01-01T12:00:00Z');
    // A map merely frozen by the caller is still checked.
    const frozen = Object.freeze({ v1: Object.freeze({ sunset: 'soon' }) });
    expect(() => new BaseVersioning({ lifecycle: frozen })).toThrow(ConfigurationError);
  });

  it.each([
    ['not a date', { v1: { deprecated: 'tomorrow' } }, /deprecated/],
    ['month 13', { v1: { deprecated: '2026-13-01' } }, /deprecated/],
    ['30 February', { v1: { sunset: '2026-02-30' } }, /sunset/],
    ['date-time without offset', { v1: { sunset: '2026-06-01T10:00:00' } }, /sunset/],
    ['hour 25', { v1: { sunset: '2026-06-01T25:00:00Z' } }, /sunset/],
    ['deprecated false', { v1: { deprecated: false } }, /deprecated/],
    [
      'sunset before deprecation',
      { v1: { deprecated: '2026-06-01', sunset: '2026-05-31T23:59:59Z' } },
      /before/,
    ],
    ['a link with a space', { v1: { deprecated: true, link: 'https://example.org/a b' } }, /link/],
    ['a link with angle brackets', { v1: { deprecated: true, link: 'https://x/>; rel="next"' } }, /link/],
    ['an empty link', { v1: { deprecated: true, link: '' } }, /link/],
  ])('ConfigurationError at construction: %s', (_name, lifecycle, message) => {
    const bad = lifecycle as never;
    expect(() => new BaseVersioning({ lifecycle: bad })).toThrow(ConfigurationError);
    expect(() => new BaseVersioning({ lifecycle: bad })).toThrow(message);
    expect(() => new ApiSettings({ lifecycle: bad })).toThrow(ConfigurationError);
    expect(() => URLPathVersioning.withOptions({ lifecycle: bad })).toThrow(ConfigurationError);
  });

  it('the error names the version and the value', () => {
    expect(() => new BaseVersioning({ lifecycle: { v9: { sunset: 'soon' } } })).toThrow(/v9.*"soon"/);
  });

  it('sunset equal to deprecation, offsets and fractions are accepted', () => {
    const scheme = new BaseVersioning({
      lifecycle: {
        a: { deprecated: '2026-06-01T02:00:00+02:00', sunset: '2026-06-01' },
        b: { deprecated: '2026-06-01T00:00:00.250Z' },
      },
    });
    expect(scheme.lifecycle?.a?.sunset).toBe('2026-06-01');
  });
});

describe('versionStatus (clock injected)', () => {
  const scheme = (now: string, lifecycle: Record<string, object> = { v1: V1 }) =>
    new QueryParameterVersioning({ lifecycle, now: at(now) });

  it('a deprecated version: headers per RFC 9745 / RFC 8594', () => {
    const status = scheme('2026-07-01T00:00:00Z').versionStatus('v1');
    expect(status).toMatchObject({ version: 'v1', deprecated: true, gone: false });
    expect(status?.headers).toEqual({
      deprecation: '@1780272000',
      sunset: 'Fri, 01 Jan 2027 12:00:00 GMT',
      link: '<https://example.org/v1>; rel="deprecation", <https://example.org/v1>; rel="sunset"',
    });
  });

  it('a deprecation announced for later: still sent, the version not yet deprecated', () => {
    const status = scheme('2026-05-01T00:00:00Z').versionStatus('v1');
    expect(status).toMatchObject({ deprecated: false, gone: false });
    expect(status?.headers.deprecation).toBe('@1780272000');
  });

  it('gone from the sunset instant on', () => {
    expect(scheme('2027-01-01T11:59:59.999Z').versionStatus('v1')?.gone).toBe(false);
    expect(scheme('2027-01-01T12:00:00Z').versionStatus('v1')?.gone).toBe(true);
  });

  it('deprecated: true carries no date of its own: the response time, whole seconds', () => {
    const status = scheme('2026-07-01T00:00:09.900Z', { v0: { deprecated: true } }).versionStatus('v0');
    expect(status?.headers).toEqual({ deprecation: '@1782864009' });
    expect(status?.deprecated).toBe(true);
  });

  it('sunset alone (RFC 8594 without deprecation): Sunset and rel="sunset" only', () => {
    const status = scheme('2026-07-01T00:00:00Z', {
      v1: { sunset: '2027-01-01', link: '/retired' },
    }).versionStatus('v1');
    expect(status?.deprecated).toBe(false);
    expect(status?.headers).toEqual({
      sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
      link: '</retired>; rel="sunset"',
    });
  });

  it('other versions and null: no status', () => {
    expect(scheme('2026-07-01T00:00:00Z').versionStatus('v2')).toBeNull();
    expect(scheme('2026-07-01T00:00:00Z').versionStatus(null)).toBeNull();
  });

  it('sunsetMessage: default and configured, with {version} and {sunset}', () => {
    expect(scheme('2028-01-01T00:00:00Z').sunsetDetail('v1')).toBe(
      'API version "v1" was retired on 2027-01-01T12:00:00Z.',
    );
    const custom = new URLPathVersioning({
      lifecycle: { v1: V1 },
      sunsetMessage: '{version} is gone since {sunset}; use v2.',
    });
    expect(custom.sunsetDetail('v1')).toBe('v1 is gone since 2027-01-01T12:00:00Z; use v2.');
  });
});
