import { cursorPage, type TypedOrdering } from '@pagewise/core';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  CursorPagination,
  LimitOffsetPagination,
  ListView,
  PageNumberPagination,
} from '@pagewise/rest';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { compileBlocks } from '../docs/markdown-blocks.js';

// Issue 31's small type traps, checked by the type checker (`pnpm typecheck` compiles this file)
// and run: a page's readonly rows go straight back into its response, and an ordering is checked
// against the row's fields wherever a row type is known.

interface Article {
  id: number;
  title: string;
  published_at: Date;
}
const articles: Article[] = Array.from({ length: 5 }, (_, i) => ({
  id: i + 1,
  title: `t${i}`,
  published_at: new Date(Date.UTC(2024, 0, i + 1)),
}));
const request = new ApiRequest({ url: 'http://testserver/articles/' });

describe('type traps', () => {
  it('page.response(page.rows) compiles for every style: rows are readonly, response takes readonly data', async () => {
    const query = fromArray(articles, { uniqueKey: 'id' });
    const cursor = await new CursorPagination({ pageSize: 2, ordering: 'id' }).paginate(query, request);
    const numbers = await new PageNumberPagination({ pageSize: 2 }).paginate(query, request);
    const offsets = await new LimitOffsetPagination({ defaultLimit: 2 }).paginate(query, request);
    expect(cursor!.response(cursor!.rows).data.results).toHaveLength(2);
    expect(numbers!.response(numbers!.rows).data.results).toHaveLength(2);
    expect(offsets!.response(offsets!.rows).data.results).toHaveLength(2);
    expectTypeOf(cursor!.response(cursor!.rows).data.results).toEqualTypeOf<Article[]>();
  });

  it("an ordering is checked against the row's fields in a CursorPagination<Row>, as in a ListView", async () => {
    const query = fromArray(articles, { uniqueKey: 'id' });
    const page = await cursorPage(query, 'http://testserver/articles/', {
      pageSize: 2,
      ordering: '-published_at',
    });
    expect(page.rows.map((row) => row.id)).toEqual([5, 4]);
    expectTypeOf<'-published_at'>().toExtend<TypedOrdering<Article>>();
    expectTypeOf<'-published'>().not.toExtend<TypedOrdering<Article>>();
    const typed = new CursorPagination<Article>({ pageSize: 2, ordering: ['-published_at', 'id'] });
    expect((await typed.paginate(query, request))!.rows.map((row) => row.id)).toEqual([5, 4]);
    // @ts-expect-error 'titel' is no field of Article.
    new CursorPagination<Article>({ pageSize: 2, ordering: 'titel' });
    // Without a row type any field name goes, as before.
    new CursorPagination({ pageSize: 2, ordering: 'anything' });
  });

  it('a misspelt ordering on ListView is one error at the field, naming the field it meant', () => {
    ListView.asView({
      queryset: fromArray(articles),
      // @ts-expect-error 'publishd_at' is no field of Article: the error lands on this line.
      ordering: '-publishd_at',
    });
    // What a user sees, compiled as a user's file: one diagnostic, not an overload list.
    const block = {
      file: 'misspelt-ordering.md',
      section: 'type traps',
      line: 1,
      code: [
        "import { fromArray } from '@pagewise/memory-adapter';",
        "import { ListView } from '@pagewise/rest';",
        'interface Article { id: number; title: string; published_at: Date }',
        'const articles: Article[] = [];',
        "ListView.asView({ queryset: fromArray(articles), ordering: '-publishd_at' });",
        'class Feed extends ListView<Article> {}',
        "Feed.asView({ ordering: ['title', '-publishd_at'] });",
      ].join('\n'),
    };
    const [errors] = [...compileBlocks([block]).values()];
    const lines = errors!.join('\n').split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /misspelt-ordering\.md:5:\d+ TS2820: .*"-publishd_at".* Did you mean '"-published_at"'\?/,
    );
    expect(lines[1]).toMatch(/misspelt-ordering\.md:7:\d+ TS\d+: .*"-publishd_at"/);
    expect(errors!.join('\n')).not.toMatch(/overload/i);
  });
});
