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

  // Inputs that make splitting or backtracking parsers quadratic.
  test.each([
    ['many links', (n: number) => '</p>; rel=next, '.repeat(n)],
    ['unterminated quotes in garbage', (n: number) => 'x"'.repeat(n)],
    ['commas inside one target', (n: number) => `<${',;'.repeat(n * 8)}>; rel=next`],
    ['many parameters', (n: number) => `</a>${'; a="b,c"'.repeat(n)}`],
    ['opening brackets without a close', (n: number) => '<'.repeat(n * 8)],
    ['blank separators', (n: number) => ` ,${' '.repeat(n * 8)},`],
  ])('linear time: %s', (_name, make) => {
    const cost = (n: number, rounds: number) => {
      const header = make(n);
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < rounds; round += 1) {
        const started = performance.now();
        parseLinkHeader(header);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    // Warmed up at the large size so the JIT and the heap are settled for both measurements.
    cost(32_000, 1);
    const small = cost(2_000, 7);
    const large = cost(32_000, 3);
    // 16x the input: linear is ~16x, quadratic ~256x; 64 leaves room for a busy machine and GC.
    expect(large / Math.max(small, 0.05)).toBeLessThan(64);
  });
});

describe('nextLinkTarget', () => {
  test('the first link whose rel includes next', () => {
    expect(nextLinkTarget('</p1>; rel=prev, </p3>; rel="last next", </p4>; rel=next')).toBe('/p3');
    expect(nextLinkTarget('</p1>; rel=prev')).toBeNull();
    expect(nextLinkTarget('</p1>; rel=nextish')).toBeNull();
    expect(nextLinkTarget(null)).toBeNull();
  });
});
