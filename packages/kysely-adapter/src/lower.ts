import { type OrderItem, Slot, type SqlPart } from '@pagewise/sql';
import { IdentifierNode, type OperationNode, OrderByItemNode, RawNode, ValueNode } from 'kysely';

// Lowering `@pagewise/sql`'s fragments into Kysely's operation nodes: text around parts is a
// `RawNode`, an identifier an `IdentifierNode` (qualified ones joined by dots), a bound value a
// `ValueNode`, a literal an immediate `ValueNode`, a slot a `ValueNode` holding the slot (filled
// per run by `SharedState.run`), and a node part the Kysely node it wraps.

/**
 * The Kysely node of a fragment part.
 * @example
 * lower(sql`${node(column)} > ${new Slot(0)}`) // RawNode(['', ' > ', ''], [column, ValueNode(Slot 0)])
 */
export function lower(part: SqlPart): OperationNode {
  if (part instanceof Slot) return ValueNode.create(part);
  switch (part.kind) {
    case 'fragment':
      return RawNode.create(part.strings, part.parts.map(lower));
    case 'identifier': {
      const names = part.names;
      if (names.length === 1) return IdentifierNode.create(names[0]!);
      return RawNode.create(
        ['', ...names.slice(1).map(() => '.'), ''],
        names.map((name) => IdentifierNode.create(name)),
      );
    }
    case 'value':
      return ValueNode.create(part.value);
    case 'literal':
      return ValueNode.createImmediate(part.value);
    case 'node':
      return part.node as OperationNode;
  }
}

/**
 * The Kysely ORDER BY items of `@pagewise/sql`'s order items.
 * @example
 * lowerOrderItems([{ expr: node(created), direction: 'desc', nulls: 'last' }]) // "created" desc nulls last
 */
export function lowerOrderItems(items: readonly OrderItem[]): OrderByItemNode[] {
  return items.map((item) => {
    const lowered = OrderByItemNode.create(lower(item.expr), RawNode.createWithSql(item.direction));
    return item.nulls === undefined ? lowered : OrderByItemNode.cloneWith(lowered, { nulls: item.nulls });
  });
}
