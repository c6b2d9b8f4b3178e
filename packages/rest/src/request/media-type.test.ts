import { describe, expect, it } from 'vitest';
import { mediaTypePrecedence, parseAccept, parseMediaType } from './media-type.js';

describe('parseMediaType (Django parse_header_parameters)', () => {
  it('lower-cases the type and parameter names, trims and unquotes values', () => {
    const parsed = parseMediaType(' Application/JSON ; VERSION = "2.0" ; Indent=4 ');
    expect(parsed).toMatchObject({
      type: 'application',
      subtype: 'json',
      params: { version: '2.0', indent: '4' },
    });
  });

  it('keeps separators inside quoted values and unescapes quotes', () => {
    expect(parseMediaType('application/json; version="a;b,c"').params).toEqual({ version: 'a;b,c' });
    expect(parseMediaType('text/html; title="say \\"hi\\""').params).toEqual({ title: 'say "hi"' });
    // Django replaces `\\` and then `\"` over the whole value in turn: `a\\"b` ends as `a"b`, and
    // an unclosed run of escaped quotes keeps its last backslash.
    expect(parseMediaType('text/html; t="a\\\\"b"').params).toEqual({ t: 'a"b' });
    expect(parseMediaType(`a/b; x="${'\\"'.repeat(4)}`).params).toEqual({ x: '"""\\' });
  });

  it('reads q, clamped, 1 when missing or malformed', () => {
    expect(parseMediaType('text/html').quality).toBe(1);
    expect(parseMediaType('text/html;q=0.25').quality).toBe(0.25);
    expect(parseMediaType('text/html;q=7').quality).toBe(1);
    expect(parseMediaType('text/html;q=abc').quality).toBe(1);
    expect(parseMediaType('text/html;q=0').quality).toBe(0);
  });

  it('a bare * is */*; a later duplicate parameter wins', () => {
    expect(parseMediaType('*')).toMatchObject({ type: '*', subtype: '*' });
    expect(parseMediaType('a/b; v=1; V=2').params).toEqual({ v: '2' });
  });
});

describe('parseAccept', () => {
  it('splits ranges outside quotes and drops empty entries', () => {
    expect(parseAccept('text/html, , application/json; version="1,2"').map((m) => m.text)).toEqual([
      'text/html',
      'application/json; version="1,2"',
    ]);
  });

  it('a missing or blank header means */*', () => {
    expect(parseAccept(null).map((m) => m.text)).toEqual(['*/*']);
    expect(parseAccept('  ').map((m) => m.text)).toEqual(['*/*']);
  });
});

describe('mediaTypePrecedence (DRF)', () => {
  it.each([
    ['*/*', 0],
    ['*/*; version=2', 0],
    ['application/*', 1],
    ['application/json', 2],
    ['application/json; q=0.5', 2],
    ['application/json; version=2', 3],
  ] as const)('%s -> %i', (text, expected) => {
    expect(mediaTypePrecedence(parseMediaType(text))).toBe(expected);
  });
});
