import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { NoReverseMatch, Routes } from './routes.js';

const handler = () => null;

describe('Routes.match', () => {
  const routes = new Routes()
    .add('/articles/', 'article-list', handler)
    .add('/articles/:pk(\\d+)/', 'article-detail', handler)
    .include('/v1', 'v1', (v1) =>
      v1
        .add('/articles/', 'article-list', handler)
        .include('/nested', 'nested', (n) => n.add('/x/:slug/', 'x', handler)),
    );

  it('captures decoded parameters and the namespace', () => {
    expect(routes.match('/articles/7/')).toMatchObject({ params: { pk: '7' }, namespace: null });
    expect(routes.match('/v1/articles/')).toMatchObject({ namespace: 'v1' });
    expect(routes.match('/v1/nested/x/caf%C3%A9/')).toMatchObject({
      params: { slug: 'café' },
      namespace: 'v1:nested',
    });
  });

  it('patterns are anchored and constrained', () => {
    expect(routes.match('/articles/abc/')).toBeNull();
    expect(routes.match('/articles/7')).toBeNull();
    expect(routes.match('/x/articles/')).toBeNull();
  });

  it('route names become namespaced', () => {
    expect(routes.routes.map((r) => r.fullName)).toEqual([
      'article-list',
      'article-detail',
      'v1:article-list',
      'v1:nested:x',
    ]);
  });

  it('refuses bad patterns and namespaces', () => {
    expect(() => new Routes().add('articles/', 'a')).toThrow(ConfigurationError);
    expect(() => new Routes().add('/:a/:a/', 'a')).toThrow(ConfigurationError);
    expect(() => new Routes().include('/v1', 'v1:x', () => {})).toThrow(ConfigurationError);
  });
});

describe('Routes.reversePath (Django reverse)', () => {
  const routes = new Routes()
    .include('/v1', 'v1', (v1) => v1.add('/namespaced/', 'another'))
    .add('/another/', 'another')
    .add('/:version([v1|v2]+)/another/', 'another')
    .add('/items/:category/:pk(\\d+)/', 'item');

  it('picks the pattern whose parameters are exactly the given ones', () => {
    expect(routes.reversePath('another')).toBe('/another/');
    expect(routes.reversePath('another', [], { version: 'v1' })).toBe('/v1/another/');
    expect(routes.reversePath('v1:another')).toBe('/v1/namespaced/');
  });

  it('positional arguments fill the parameters in order', () => {
    expect(routes.reversePath('item', ['books', 7])).toBe('/items/books/7/');
    expect(routes.reversePath('item', [7], { category: 'books' })).toBe('/items/books/7/');
  });

  it('values are checked against the pattern and quoted', () => {
    expect(() => routes.reversePath('another', [], { version: 'v3' })).toThrow(NoReverseMatch);
    expect(() => routes.reversePath('item', ['a/b', 1])).toThrow(NoReverseMatch);
    expect(routes.reversePath('item', ['café & tea', 1])).toBe('/items/caf%C3%A9%20&%20tea/1/');
    expect(() => routes.reversePath('item', ['', 1])).toThrow(NoReverseMatch);
  });

  it('a parameter of plain alternatives takes only a whole alternative, as its regex does', () => {
    const versions = new Routes().add('/:version(v1|v2)/articles/:id([^/.]+)/', 'detail');
    expect(versions.reversePath('detail', [], { version: 'v2', id: 7 })).toBe('/v2/articles/7/');
    for (const version of ['v3', 'v1v2', 'v1|v2', '', 'V1']) {
      expect(() => versions.reversePath('detail', [], { version, id: 7 })).toThrow(NoReverseMatch);
    }
    expect(() => versions.reversePath('detail', [], { version: 'v1', id: '7.json' })).toThrow(NoReverseMatch);
  });

  it('a literal that needs quoting is quoted with the values', () => {
    const menu = new Routes().add('/café/:slug/', 'menu');
    expect(menu.reversePath('menu', ['tea'])).toBe('/caf%C3%A9/tea/');
    expect(menu.reversePath('menu', [], { slug: 'thé' })).toBe('/caf%C3%A9/th%C3%A9/');
  });

  it('unknown names and namespaces: NoReverseMatch with Django messages', () => {
    expect(() => routes.reversePath('nope')).toThrow(
      "Reverse for 'nope' not found. 'nope' is not a valid view function or pattern name.",
    );
    expect(() => routes.reversePath('v9:another')).toThrow("'v9' is not a registered namespace");
    expect(() => routes.reversePath('another', [], { pk: 1 })).toThrow('2 pattern(s) tried');
  });
});
