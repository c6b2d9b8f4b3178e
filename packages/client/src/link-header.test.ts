import { describe, expect, test } from 'vitest';
import { nextLinkTarget, parseLinkHeader } from './link-header.js';

const simple = (header: string) =>
  parseLinkHeader(header).map((link) => ({ target: link.target, rel: link.rel }));

describe('parseLinkHeader', () => {
  test('the header Pagewise sends: next and prev', () => {
    expect(simple('<http://api/?page=3>; rel="next", <http://api/>; rel="prev"')).toEqual([
      { target: 'http://api/?page=3', rel: ['next'] },
      { target: 'http://api/', rel: ['prev'] },
    ]);
  });

  test('commas, semicolons and quotes inside <...> do not split links', () => {
    expect(simple('<http://api/?ids=1,2,3;x="y">; rel="next", <http://api/?a=<b;c>; rel=prev')).toEqual([
      { target: 'http://api/?ids=1,2,3;x="y"', rel: ['next'] },
      { target: 'http://api/?a=<b;c', rel: ['prev'] },
    ]);
  });

  test('commas and semicolons inside quoted values do not split links or parameters', () => {
    const links = parseLinkHeader(
      '</a>; title="one, two; three"; rel="next", </b>; title="say \\"hi\\", \\\\ok"; rel=last',
    );
    expect(links.map((link) => [link.target, link.rel, link.params.title])).toEqual([
      ['/a', ['next'], 'one, two; three'],
      ['/b', ['last'], 'say "hi", \\ok'],
    ]);
  });

  test('several relation types, any case, any spacing; unquoted values', () => {
    expect(simple('</p9>;REL="Last   NEXT"')).toEqual([{ target: '/p9', rel: ['last', 'next'] }]);
    expect(simple('  </x> ;  rel = next  ,,  , </y>;rel=prev ')).toEqual([
      { target: '/x', rel: ['next'] },
      { target: '/y', rel: ['prev'] },
    ]);
  });

  test('parameter names are case-insensitive and the first occurrence wins (RFC 8288 §3)', () => {
    const [link] = parseLinkHeader('</a>; rel=prev; REL=next; Type=text/html; hreflang');
    expect(link!.rel).toEqual(['prev']);
    expect({ ...link!.params }).toEqual({ rel: 'prev', type: 'text/html', hreflang: '' });
  });

  test('a parameter named __proto__ is data, not a prototype', () => {
    const [link] = parseLinkHeader('</a>; __proto__="x"; rel=next');
    expect(Object.entries(link!.params)).toEqual([
      ['__proto__', 'x'],
      ['rel', 'next'],
    ]);
    expect(Object.getPrototypeOf(link!.params)).toBeNull();
    expect(link!.rel).toEqual(['next']);
  });

  test('a malformed link is dropped up to the next comma; the others are kept', () => {
    expect(simple('garbage, </a> junk "q,w", </b>; rel=next; =bad, </c>; rel=prev')).toEqual([
      { target: '/c', rel: ['prev'] },
    ]);
    expect(simple('no brackets; rel=next, </ok>; rel=next')).toEqual([{ target: '/ok', rel: ['next'] }]);
  });

  test('links without rel, trailing semicolons, empty and blank headers', () => {
    expect(simple('</a>;, </b>; ; rel=next;')).toEqual([
      { target: '/a', rel: [] },
      { target: '/b', rel: ['next'] },
    ]);
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader(' , ,')).toEqual([]);
  });

  test('an unterminated target ends parsing; an unterminated quote takes the rest', () => {
    expect(simple('</a>; rel=next, </b; rel=prev')).toEqual([{ target: '/a', rel: ['next'] }]);
    expect(parseLinkHeader('</a>; rel=next; title="open, </b>; rel=prev')[0]!.params.title).toBe(
      'open, </b>; rel=prev',
    );
  });

  test('values are frozen', () => {
    const [link] = parseLinkHeader('</a>; rel=next');
    expect(Object.isFrozen(link)).toBe(true);
    expect(Object.isFrozen(link!.rel)).toBe(true);
    expect(Object.isFrozen(link!.params)).toBe(true);
  });

  // Inputs that make splitting or backtracking parsers quadratic. Work is counted, not timed: every
  // character the parser reads from the header (charCodeAt, and the span indexOf or slice covers).
  test.each([
    ['many links', (n: number) => '</p>; rel=next, '.repeat(n)],
    ['unterminated quotes in garbage', (n: number) => 'x"'.repeat(n)],
    ['commas inside one target', (n: number) => `<${',;'.repeat(n)}>; rel=next`],
    ['many parameters', (n: number) => `</a>${'; a="b,c"'.repeat(n)}`],
    ['escapes in a quoted value', (n: number) => `</a>; title="${'\\"'.repeat(n)}"; rel=next`],
    ['a quote left open', (n: number) => `</a>; title="${'<x>; rel=next, '.repeat(n)}`],
    ['opening brackets without a close', (n: number) => '<'.repeat(n)],
    ['malformed links', (n: number) => '</a> junk, '.repeat(n)],
    ['blank separators', (n: number) => ` ,${' , '.repeat(n)},`],
  ])('linear time: %s', (_name, make) => {
    const small = workOf(make(1_000));
    const large = workOf(make(10_000));
    expect(small).toBeGreaterThan(0);
    // 10x the input: linear work is ~10x, quadratic ~100x.
    expect(large / small).toBeLessThan(12);
  });
});

/**
 * How many characters `parseLinkHeader` reads from `text`, through a stand-in string that counts
 * its reads and refuses any method it does not know (so a parser change cannot go uncounted).
 */
function workOf(text: string): number {
  let work = 0;
  const methods: Record<string, (...args: never[]) => unknown> = {
    charCodeAt: (index: number) => {
      work += 1;
      return text.charCodeAt(index);
    },
    indexOf: (search: string, from = 0) => {
      const at = text.indexOf(search, from);
      work += (at === -1 ? text.length : at + search.length) - from;
      return at;
    },
    slice: (start: number, end = text.length) => {
      work += Math.max(0, end - start);
      return text.slice(start, end);
    },
  };
  const header = new Proxy(
    {},
    {
      get(_target, key) {
        if (key === 'length') return text.length;
        const method = typeof key === 'string' ? methods[key] : undefined;
        if (method === undefined) throw new Error(`workOf does not count header.${String(key)}`);
        return method;
      },
    },
  );
  const links = parseLinkHeader(header as unknown as string);
  expect(links).toEqual(parseLinkHeader(text));
  return work;
}

describe('nextLinkTarget', () => {
  test('the first link whose rel includes next', () => {
    expect(nextLinkTarget('</p1>; rel=prev, </p3>; rel="last next", </p4>; rel=next')).toBe('/p3');
    expect(nextLinkTarget('</p1>; rel=prev')).toBeNull();
    expect(nextLinkTarget('</p1>; rel=nextish')).toBeNull();
    expect(nextLinkTarget(null)).toBeNull();
  });
});
