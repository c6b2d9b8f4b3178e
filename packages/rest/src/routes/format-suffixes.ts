import { ConfigurationError } from '@pagewise/core';
import { ADD_ROUTE, Routes } from './routes.js';

/**
 * Options of `formatSuffixPatterns`.
 *
 * @example
 * formatSuffixPatterns(routes, { allowed: ['json', 'api'] })
 */
export interface FormatSuffixOptions {
  /** Only the suffixed routes, not the plain ones. @default false */
  readonly suffixRequired?: boolean;
  /** The suffixes that route (`['json', 'api']`). @default null (any `[a-z0-9]+`) */
  readonly allowed?: readonly string[] | null;
}

/** The path keyword a suffix fills, DRF's `FORMAT_SUFFIX_KWARG`: views read `request.params.format`. */
export const FORMAT_SUFFIX_KWARG = 'format';

const FORMAT_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The pattern text that adds a `.json` style suffix to `pattern`, DRF's: the pattern's last slash
 * is dropped, then `.<format>` and an optional slash follow (`/articles/` becomes
 * `/articles.:format([a-z0-9]+)/?`, which matches `/articles.json` and `/articles.json/` and
 * reverses to `/articles.json`). A pattern that is only `/` keeps it: `/.:format(...)/?`.
 *
 * @example
 * formatSuffixPattern('/articles/:id/') // '/articles/:id.:format([a-z0-9]+)/?'
 */
export function formatSuffixPattern(pattern: string, allowed: readonly string[] | null = null): string {
  if (allowed !== null) {
    const bad = allowed.find((format) => !FORMAT_NAME.test(format));
    if (allowed.length === 0 || bad !== undefined) {
      throw new ConfigurationError(
        `Format suffixes are names of letters, digits, "_" and "-": ${JSON.stringify(bad ?? allowed)}`,
      );
    }
  }
  const head = pattern.replace(/\/\?$/, '').replace(/\/$/, '') || '/';
  const formats = allowed === null ? '[a-z0-9]+' : allowed.join('|');
  return `${head}.:${FORMAT_SUFFIX_KWARG}(${formats})/?`;
}

/**
 * DRF's `format_suffix_patterns`: a new table with each route of `routes` followed by a twin
 * taking a `.json` style suffix (namespaces, names and handlers kept), so `/articles.json` reaches
 * the `/articles/` view with `request.params.format = 'json'`, which picks the renderer of that
 * format (none: 404). `reverse(name, { format: 'json' })` finds the twin. The OpenAPI document
 * leaves the twins out, as DRF's schema generator does.
 *
 * @example
 * const routes = formatSuffixPatterns(new Routes().add('/articles/', 'article-list', articleList));
 * routes.match('/articles.json')?.params // { format: 'json' }
 */
export function formatSuffixPatterns(routes: Routes, options: FormatSuffixOptions = {}): Routes {
  const { suffixRequired = false, allowed = null } = options;
  const result = new Routes();
  for (const route of routes.routes) {
    if (!suffixRequired) result[ADD_ROUTE](route.pattern, route.name, route.namespace, route.handler);
    result[ADD_ROUTE](
      formatSuffixPattern(route.pattern, allowed),
      route.name,
      route.namespace,
      route.handler,
    );
  }
  return result;
}
