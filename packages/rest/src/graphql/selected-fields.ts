/** The parts of a GraphQL selection `selectsField` reads (graphql-js's AST, structurally). */
interface SelectionNode {
  readonly kind: string;
  readonly name?: { readonly value: string };
  readonly selectionSet?: { readonly selections: readonly SelectionNode[] } | undefined;
}

/** The parts of a resolver's `info` (graphql-js's `GraphQLResolveInfo`) `selectsField` reads. */
export interface SelectionInfo {
  readonly fieldNodes: readonly SelectionNode[];
  readonly fragments: Readonly<
    Record<string, { readonly selectionSet: { readonly selections: readonly SelectionNode[] } }>
  >;
}

/**
 * Whether the field being resolved selects `name` (directly, in an inline fragment or through a
 * named one): a connection resolver counts only when the query asks for `totalCount`.
 *
 * @example
 * resolve: (_root, args, _context, info) =>
 *   connectionFromQuery(query, args, { count: selectsField(info, 'totalCount') ? 'exact' : 'none' })
 */
export function selectsField(info: SelectionInfo, name: string): boolean {
  const seen = new Set<string>();
  const visit = (selections: readonly SelectionNode[]): boolean => {
    for (const selection of selections) {
      if (selection.kind === 'Field' && selection.name?.value === name) return true;
      if (
        selection.kind === 'InlineFragment' &&
        selection.selectionSet &&
        visit(selection.selectionSet.selections)
      )
        return true;
      if (selection.kind === 'FragmentSpread' && selection.name && !seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = info.fragments[selection.name.value];
        if (fragment && visit(fragment.selectionSet.selections)) return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some(
    (node) => node.selectionSet !== undefined && visit(node.selectionSet.selections),
  );
}
