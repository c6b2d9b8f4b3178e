import { NotAcceptable, NotFound } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { ApiResponse, jsonReplacer, toWire } from '../request/api-response.js';
import { forcedRenderer, selectRenderer } from './content-negotiation.js';
import { browsableHtmlRenderer, defaultRenderers, jsonRenderer } from './renderers.js';

const pick = (accept: string | null, format?: string) =>
  selectRenderer({ accept, ...(format ? { format } : {}) }, defaultRenderers);

describe('selectRenderer', () => {
  it('JSON by default', () => {
    expect(pick(null)).toEqual({
      renderer: jsonRenderer,
      acceptedMediaType: 'application/json',
      contentType: 'application/json',
    });
  });

  it('a wildcard range becomes the renderer type followed by its parameters (DRF)', () => {
    expect(pick('*/*; version=1.2.3').acceptedMediaType).toBe('application/json;version=1.2.3');
    expect(pick('application/*;q=0.9;version=2').acceptedMediaType).toBe('application/json;q=0.9;version=2');
  });

  it('a range at least as specific as the renderer is kept verbatim', () => {
    expect(pick('application/json; version=1.2.3').acceptedMediaType).toBe('application/json; version=1.2.3');
    expect(pick('application/vnd.pagewise+json; version=2')).toMatchObject({
      renderer: jsonRenderer,
      acceptedMediaType: 'application/vnd.pagewise+json; version=2',
      contentType: 'application/vnd.pagewise+json',
    });
  });

  it('a browser gets HTML: its specific range beats */*;q=0.8', () => {
    expect(pick('text/html,application/xhtml+xml,*/*;q=0.8').renderer).toBe(browsableHtmlRenderer);
  });

  it('quality first, then specificity, then renderer order', () => {
    expect(pick('application/json;q=0.4, text/html;q=0.5').renderer).toBe(browsableHtmlRenderer);
    expect(pick('*/*, text/html').renderer).toBe(browsableHtmlRenderer);
    expect(pick('*/*').renderer).toBe(jsonRenderer);
  });

  it('q=0 on the most specific range refuses that renderer', () => {
    expect(pick('application/json;q=0, */*').renderer).toBe(browsableHtmlRenderer);
    expect(() => pick('application/json;q=0, text/html;q=0')).toThrow(NotAcceptable);
  });

  it('nothing acceptable: 406 with DRF message', () => {
    expect(() => pick('text/plain')).toThrow('Could not satisfy the request Accept header.');
  });

  it('a format keeps only its renderers; an unknown one is 404', () => {
    expect(pick('*/*', 'api').renderer).toBe(browsableHtmlRenderer);
    expect(() => pick('*/*', 'yaml')).toThrow(NotFound);
  });

  it('forcedRenderer answers with the first renderer', () => {
    expect(forcedRenderer([browsableHtmlRenderer]).contentType).toBe('text/html; charset=utf-8');
  });
});

describe('jsonRenderer', () => {
  const render = (data: unknown, acceptedMediaType: string) =>
    jsonRenderer.render(data, { request: null, status: 200, acceptedMediaType });

  it('compact by default, indented by the indent parameter clamped to 0..8', () => {
    expect(render({ a: [1] }, 'application/json')).toBe('{"a":[1]}');
    expect(render({ a: 1 }, 'application/json; indent=2')).toBe('{\n  "a": 1\n}');
    expect(render({ a: 1 }, 'application/json; indent=99')).toBe('{\n        "a": 1\n}');
    expect(render({ a: 1 }, 'application/json; indent=x')).toBe('{"a":1}');
  });

  it('bigints as strings', () => {
    expect(render({ n: 10n }, 'application/json')).toBe('{"n":"10"}');
  });

  it('the same text as JSON.stringify with the bigint replacer, bigints deep in rows or not', () => {
    const rows = [
      { id: 1, at: new Date('2024-01-01T00:00:00.000Z'), note: 'é', money: { toJSON: () => '1.50' } },
      { id: 2, at: null, note: undefined, big: 9_007_199_254_740_993n },
    ];
    for (const data of [{ results: rows }, { results: rows.slice(0, 1) }, [1n, [2n]]]) {
      for (const media of ['application/json', 'application/json; indent=2']) {
        const indent = media.includes('indent') ? 2 : undefined;
        expect(render(data, media)).toBe(JSON.stringify(data, jsonReplacer, indent));
      }
    }
    expect(render({ results: rows }, 'application/json')).toContain('"big":"9007199254740993"');
  });

  it('a cycle is still a TypeError', () => {
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    expect(() => render(cyclic, 'application/json')).toThrow(TypeError);
  });
});

describe('toWire', () => {
  it('JSON with bigints as strings and Content-Length in UTF-8 bytes', () => {
    const wire = toWire(new ApiResponse({ n: 10n, s: 'é€' }), 'GET');
    expect(wire.body).toBe('{"n":"10","s":"é€"}');
    expect(wire.headers.get('content-length')).toBe(String(new TextEncoder().encode(wire.body!).length));
    expect(wire.headers.get('content-type')).toBe('application/json');
  });
});

describe('browsableHtmlRenderer', () => {
  it('escapes the data and includes the controls', () => {
    const html = browsableHtmlRenderer.render(
      { title: '<script>alert(1)</script>' },
      { request: null, status: 200, acceptedMediaType: 'text/html', controlsHtml: '<nav>controls</nav>' },
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<nav>controls</nav>');
  });
});
