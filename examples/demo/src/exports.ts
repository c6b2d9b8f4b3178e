import { type OrderedQuery, streamRows } from '@pagewise/core';
import { ApiRequest } from '@pagewise/rest';
import { type ArticleRow, type AuthorRow, type ExportedArticle, exportArticle } from './serializers.js';

/** Where an export reads its rows. */
export interface ArticleExportOptions {
  /** The articles; the export orders them by `id` itself. */
  readonly query: () => OrderedQuery<ArticleRow>;
  /** The API version whose fields the records carry (`v2` renames them). @default 'v1' */
  readonly version?: string | null;
  /** The authors, read once per export (v2 names the author). @default none: names are null */
  readonly authors?: () => Promise<ReadonlyMap<number, AuthorRow>>;
  /** Rows per keyset statement. @default 1000 */
  readonly batchSize?: number;
}

/** Bytes of text gathered into one chunk before it is handed to the socket. */
const CHUNK = 64 * 1024;

type Cell = string | number | null;

/** A record's CSV cells by column: nested objects become `parent.child` columns. */
function flatten(record: object, prefix = ''): [string, Cell][] {
  return Object.entries(record).flatMap(([key, value]): [string, Cell][] =>
    value !== null && typeof value === 'object'
      ? flatten(value as object, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value as Cell]],
  );
}

/** The export's records, in the version's fields, by keyset on `id`. */
async function* records(options: ArticleExportOptions): AsyncIterable<ExportedArticle> {
  const authors = (await options.authors?.()) ?? new Map<number, AuthorRow>();
  // The version changes are told the request they answer: an export's is its own, with no route.
  const context = { request: new ApiRequest({ url: 'http://localhost/' }), version: options.version ?? 'v1' };
  for await (const article of streamRows(options.query(), {
    ordering: 'id',
    batchSize: options.batchSize ?? 1000,
  })) {
    yield exportArticle(article, context, authors);
  }
}

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break. A text starting
 * with `=`, `+`, `-` or `@` gets a leading `'`, so spreadsheets do not run it as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A byte stream of `lines` that only reads on demand: `pull` runs when the consumer wants the
 * next chunk (Node's binding waits for the socket's `drain` before reading again), so a slow
 * client holds the walk back instead of the server queueing the table. Cancelling (the client
 * went away) ends the walk, which stops the statements.
 */
export function linesStream(lines: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = lines[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk = '';
        while (chunk.length < CHUNK) {
          const next = await iterator.next();
          if (next.done) {
            if (chunk !== '') controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

async function* ndjsonLines(options: ArticleExportOptions): AsyncIterable<string> {
  for await (const record of records(options)) yield `${JSON.stringify(record)}\n`;
}

async function* csvLines(options: ArticleExportOptions): AsyncIterable<string> {
  let header = true;
  for await (const record of records(options)) {
    const cells = flatten(record);
    // The header follows the version's fields (every record of a version has the same ones).
    if (header) yield `${cells.map(([column]) => column).join(',')}\r\n`;
    header = false;
    yield `${cells.map(([, value]) => csvField(value)).join(',')}\r\n`;
  }
}

/**
 * `GET /{v1|v2}/articles/export.ndjson` and `.csv`: every article, by keyset on `id`, streamed,
 * in the fields of the version's serializer.
 *
 * @example
 * hono.get('/v2/articles/export.ndjson', () => articleExport('ndjson', { query, version: 'v2' }));
 */
export function articleExport(format: 'ndjson' | 'csv', options: ArticleExportOptions): Response {
  const lines = format === 'ndjson' ? ndjsonLines(options) : csvLines(options);
  return new Response(linesStream(lines), {
    headers: {
      'content-type': format === 'ndjson' ? 'application/x-ndjson; charset=utf-8' : 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="articles.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
