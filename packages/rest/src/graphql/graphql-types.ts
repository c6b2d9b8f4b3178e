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

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * A connection type and its edge type over `node`, as SDL: `<Node>Connection` with `edges` and
 * `pageInfo` (`PageInfo`, from `pageInfoTypeDefs`), `<Node>Edge` with `node` and `cursor`: the
 * shape `connectionFromQuery` answers. Names that are not GraphQL names are a `ConfigurationError`.
 *
 * @example
 * connectionTypeDefs('Article')
 * // type ArticleConnection { edges: [ArticleEdge!]! pageInfo: PageInfo! }
 * // type ArticleEdge { node: Article! cursor: String! }
 */
export function connectionTypeDefs(
  node: string,
  names: { readonly connection?: string; readonly edge?: string } = {},
): string {
  const connection = names.connection ?? `${node}Connection`;
  const edge = names.edge ?? `${node}Edge`;
  for (const name of [node, connection, edge]) {
    if (!GRAPHQL_NAME.test(name))
      throw new ConfigurationError(`${JSON.stringify(name)} is not a GraphQL name`);
  }
  return `type ${connection} {
  edges: [${edge}!]!
  pageInfo: PageInfo!
}

type ${edge} {
  node: ${node}!
  cursor: String!
}
`;
}
