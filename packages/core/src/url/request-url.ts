import { QueryParams } from './query-params.js';
import { LinkTemplate } from './query-string.js';

/** A page function's URL taken apart: its query parameters and the template its links are made from. */
export interface RequestUrl {
  /** Django `QueryDict` semantics: `get` answers the last value of a repeated key. */
  readonly params: QueryParams;
  readonly links: LinkTemplate;
}

/**
 * The URL a page function is given, parsed once for both its parameters and its links.
 *
 * @example
 * const { params, links } = requestUrl('http://testserver/items?cursor=abc');
 * params.get('cursor'); // 'abc'
 * links.with('cursor', 'def'); // 'http://testserver/items?cursor=def'
 */
export function requestUrl(url: string | URL): RequestUrl {
  const target = typeof url === 'string' ? new URL(url) : url;
  const params = new QueryParams(target.search);
  const { href, search } = target;
  // Without a fragment the link template reuses the parsed pairs instead of parsing them again.
  const links =
    target.hash === ''
      ? new LinkTemplate({ base: href.slice(0, href.length - search.length), query: params.entries() })
      : new LinkTemplate(target);
  return { params, links };
}
