import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiRequest } from './request/api-request.js';
import { isCalendarDate, versionBundle, versionChange, versionChangelog } from './version-bundle.js';

type Item = Record<string, unknown>;

const renameHeadline = versionChange({
  description: 'Articles have `title` instead of `headline`.',
  response: ({ headline, ...rest }: Item) => ({ ...rest, title: headline }),
  request: ({ title, ...rest }) => (title === undefined ? rest : { ...rest, headline: title }),
  schema: (schema) => {
    const { headline, ...properties } = schema.properties as Record<string, unknown>;
    return { ...schema, properties: { ...properties, title: headline } };
  },
});
const dropRating = versionChange({
  description: 'Articles have no `rating`.',
  response: ({ rating: _rating, ...rest }: Item) => rest,
});
const addTrail = (mark: string) =>
  versionChange({
    description: `mark ${mark}`,
    response: (item: { trail?: string }) => ({ ...item, trail: `${item.trail ?? ''}${mark}` }),
    request: (body) => ({ ...body, trail: `${(body.trail as string | undefined) ?? ''}${mark}` }),
  });

const bundle = versionBundle({
  versions: [
    { version: '2026-01-10', changes: [dropRating] },
    { version: '2025-11-15', changes: [renameHeadline] },
    { version: '2025-06-01' },
  ],
});
const request = new ApiRequest({ url: 'http://testserver/' });

describe('versionBundle: the settled ConfigurationErrors', () => {
  it('refuses a change on the oldest version', () => {
    expect(() =>
      versionBundle({
        versions: [{ version: '2026-01-10' }, { version: '2025-06-01', changes: [dropRating] }],
      }),
    ).toThrow(/2025-06-01 is the oldest version/);
  });

  it('refuses dates out of order, and a date twice', () => {
    expect(() => versionBundle({ versions: [{ version: '2025-06-01' }, { version: '2026-01-10' }] })).toThrow(
      /newest first, but 2026-01-10 comes after 2025-06-01/,
    );
    expect(() => versionBundle({ versions: [{ version: '2025-06-01' }, { version: '2025-06-01' }] })).toThrow(
      ConfigurationError,
    );
  });

  it("refuses a non-date under ordered: 'date', the default, and takes it under 'listed'", () => {
    expect(() => versionBundle({ versions: [{ version: 'v2' }, { version: 'v1' }] })).toThrow(
      /"v2" is not a calendar date/,
    );
    expect(() => versionBundle({ versions: [{ version: '2025-13-01' }] })).toThrow(ConfigurationError);
    expect(
      versionBundle({ versions: [{ version: 'v1' }, { version: 'v2' }], ordered: 'listed' }).versions,
    ).toEqual(['v1', 'v2']);
  });

  it('refuses an empty bundle, a change without a description, and a change not made by versionChange', () => {
    expect(() => versionBundle({ versions: [] })).toThrow(ConfigurationError);
    expect(() => versionChange({ description: ' ' })).toThrow(ConfigurationError);
    expect(() =>
      versionBundle({
        versions: [
          { version: '2026-01-10', changes: [{ description: 'x' } as never] },
          { version: '2025-01-01' },
        ],
      }),
    ).toThrow(/not made by versionChange/);
  });
});

describe('dates', () => {
  it('only real calendar dates count', () => {
    expect(['2024-02-29', '2025-12-25'].map(isCalendarDate)).toEqual([true, true]);
    expect(
      ['2025-13-01', '2025-02-29', '2025-1-01', '20250101', '2025-12-25T00:00'].map(isCalendarDate),
    ).toEqual([false, false, false, false, false]);
  });

  it('a date between two versions is served by the nearest earlier one, never a later one', () => {
    expect(bundle.resolve('2025-12-25')).toBe('2025-11-15');
    expect(bundle.resolve('2026-01-09')).toBe('2025-11-15');
    expect(bundle.resolve('2025-11-15')).toBe('2025-11-15');
    expect(bundle.resolve('2030-01-01')).toBe('2026-01-10');
  });

  it('a date before the oldest, a non-date and a calendar impossibility are not served', () => {
    expect([
      bundle.resolve('2025-05-31'),
      bundle.resolve('v1'),
      bundle.resolve('2025-13-01'),
      bundle.resolve(null),
    ]).toEqual([null, null, null, null]);
  });

  it("'listed' matches names exactly", () => {
    const listed = versionBundle({
      versions: [{ version: 'v2', changes: [dropRating] }, { version: 'v1' }],
      ordered: 'listed',
    });
    expect([listed.resolve('v1'), listed.resolve('v3'), listed.resolve('2025-01-01')]).toEqual([
      'v1',
      null,
      null,
    ]);
  });
});

describe('the chain', () => {
  const newest = { id: 1, headline: 'Hello', rating: 4 };

  it('converts an item one version back per version, and leaves the newest as it is', () => {
    const at = (version: string) => bundle.convertItem(newest, { request, version });
    expect(at('2026-01-10')).toBe(newest);
    expect(at('2025-11-15')).toEqual({ id: 1, headline: 'Hello' });
    expect(at('2025-06-01')).toEqual({ id: 1, title: 'Hello' });
    expect(newest).toEqual({ id: 1, headline: 'Hello', rating: 4 });
  });

  it('converts a request body forward, from the oldest up', () => {
    const old = Object.freeze({ title: 'Hi' });
    expect(bundle.convertRequest(old, { request, version: '2025-06-01' })).toEqual({ headline: 'Hi' });
    expect(bundle.convertRequest(old, { request, version: '2025-11-15' })).toBe(old);
  });

  it('several changes of one version: responses in listed order, requests in reverse', () => {
    const ordered = versionBundle({
      versions: [
        { version: '2026-01-10', changes: [addTrail('a'), addTrail('b')] },
        { version: '2025-11-15', changes: [addTrail('c')] },
        { version: '2025-06-01' },
      ],
    });
    const context = { request, version: '2025-06-01' };
    expect(ordered.convertItem({}, context)).toEqual({ trail: 'abc' });
    expect(ordered.convertRequest({}, context)).toEqual({ trail: 'cba' });
  });

  it('converts a schema down the chain', () => {
    const schema = { type: 'object', properties: { id: {}, headline: { type: 'string' } } };
    expect(bundle.convertSchema(schema, { version: '2025-06-01', openapi: '3.1' })).toEqual({
      type: 'object',
      properties: { id: {}, title: { type: 'string' } },
    });
  });

  it('a request converter must answer an object', () => {
    const bad = versionBundle({
      versions: [
        {
          version: '2026-01-10',
          changes: [versionChange({ description: 'x', request: () => null as never })],
        },
        { version: '2025-06-01' },
      ],
    });
    expect(() => bad.convertRequest({}, { request, version: '2025-06-01' })).toThrow(
      /must answer a request body/,
    );
  });
});

describe('versionChangelog', () => {
  it('## <version> sections, newest first, each with - description items', () => {
    expect(versionChangelog(bundle)).toBe(
      '## 2026-01-10\n\n- Articles have no `rating`.\n\n## 2025-11-15\n\n- Articles have `title` instead of `headline`.\n',
    );
  });
});
