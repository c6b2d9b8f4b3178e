import { ConfigurationError } from '@pagewise/core';

/**
 * The GraphQL Cursor Connections spec's `PageInfo`, as SDL: what `connectionFromQuery` answers in
 * `pageInfo`. Put it once in a schema's type definitions.
 *
 * @example
 * const typeDefs = `${pageInfoTypeDefs}\n${connectionTypeDefs('Article')}\ntype Query { articles(${connectionArgs}): ArticleConnection! }`;
 */
export const pageInfoTypeDefs = `"""Where a page of a connection stands (GraphQL Cursor Connections)."""
type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}
`;

/**
 * The arguments of a connection field, as SDL: `first`/`after` forward, `last`/`before` backward,
 * what `connectionFromQuery` takes.
 *
 * @example
 * `type Query { articles(${connectionArgs}): ArticleConnection! }`
 */
export const connectionArgs = 'first: Int, after: String, last: Int, before: String';

/** The connection's `totalCount` field, as SDL. */
const TOTAL_COUNT = `
  """Rows of the whole connection, not only this page's edges."""
  totalCount: Int!`;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * A connection type and its edge type over `node`, as SDL: `<Node>Connection` with `edges` and
 * `pageInfo` (`PageInfo`, from `pageInfoTypeDefs`), `<Node>Edge` with `node` and `cursor`: the
 * shape `connectionFromQuery` answers. With `totalCount: true`, the connection also has
 * `totalCount: Int!` (`connectionFromQuery`'s `count` option; count it only when selected:
 * `selectsField(info, 'totalCount')`). Names that are not GraphQL names are a `ConfigurationError`.
 *
 * @example
 * connectionTypeDefs('Article', { totalCount: true })
 * // type ArticleConnection { edges: [ArticleEdge!]! pageInfo: PageInfo! totalCount: Int! }
 * // type ArticleEdge { node: Article! cursor: String! }
 */
export function connectionTypeDefs(
  node: string,
  names: { readonly connection?: string; readonly edge?: string; readonly totalCount?: boolean } = {},
): string {
  const connection = names.connection ?? `${node}Connection`;
  const edge = names.edge ?? `${node}Edge`;
  for (const name of [node, connection, edge]) {
    if (!GRAPHQL_NAME.test(name))
      throw new ConfigurationError(`${JSON.stringify(name)} is not a GraphQL name`);
  }
  return `type ${connection} {
  edges: [${edge}!]!
  pageInfo: PageInfo!${names.totalCount ? TOTAL_COUNT : ''}
}

type ${edge} {
  node: ${node}!
  cursor: String!
}
`;
}
