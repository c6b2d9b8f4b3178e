// The browser side: @pagewise/client under TanStack Query's core (what its React, Vue, Solid and
// Svelte adapters share), an infinite query walking a feed to its last page. It prints what it
// collected as JSON.
import { iteratePages, PagewiseClientError, pageResults } from '@pagewise/client';
import { InfiniteQueryObserver, QueryClient } from '@tanstack/query-core';

interface Article {
  id: number;
  title: string;
  published_at: string;
}

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

function articlesQuery(firstPage: string) {
  return new InfiniteQueryObserver(queryClient, {
    queryKey: ['articles', firstPage],
    initialPageParam: firstPage,
    // Glue: the client walks whole lists; a query function fetches one page, the walk's first.
    queryFn: async ({ pageParam, signal }) => {
      for await (const page of iteratePages<Article>(pageParam, { signal })) return page;
      throw new Error(`no page at ${pageParam}`);
    },
    getNextPageParam: (lastPage) => (Array.isArray(lastPage) ? null : lastPage.next) ?? undefined,
  });
}

const feed = articlesQuery(process.argv[2]!);
let result = await feed.fetchNextPage();
while (result.hasNextPage) result = await feed.fetchNextPage();
const pages = result.data?.pages ?? [];

const broken = await articlesQuery(process.argv[3]!).fetchNextPage();
const error = broken.error instanceof PagewiseClientError ? broken.error : null;

console.log(
  JSON.stringify({
    pages: pages.length,
    ids: pages.flatMap((page) => pageResults(page).map((article) => article.id)),
    error: error && { status: error.status, code: error.code, detail: error.detail },
  }),
);
queryClient.clear();
