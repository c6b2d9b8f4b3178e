// Expected NOT to compile: a misspelt ordering field is one error at the field, on ListView and on
// a CursorPagination typed for its row. tests/outside-apps compiles this file on its own.
import { fromArray } from '@pagewise/memory-adapter';
import { CursorPagination, ListView } from '@pagewise/rest';

interface Article {
  id: number;
  title: string;
  published_at: Date;
}
const articles: Article[] = [];

export const view = ListView.asView({ queryset: fromArray(articles), ordering: '-publishd_at' });
export const feed = new CursorPagination<Article>({ pageSize: 20, ordering: ['title', '-publishd_at'] });
