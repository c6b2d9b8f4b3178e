import { Slot } from '@pagewise/sql';
import {
  AliasNode,
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  OperatorNode,
  type OrderByItemNode,
  ParensNode,
  PrimitiveValueListNode,
  RawNode,
  ReferenceNode,
  SelectAllNode,
  SelectionNode,
  SelectQueryNode,
  TableNode,
  ValueListNode,
  ValueNode,
} from 'kysely';

// Pure helpers over Kysely's operation-node trees: taking a query's values out (so its shape can
// key the statement cache), naming columns and tables, finding the expression behind a field,
// and swapping a whole statement into a builder. Nothing here holds state or runs SQL.

/**
 * Replaces the values of the query's own clauses with base `Slot`s (collected into `values`), so
 * the statement's shape can key the caches. A plain walk that copies only the nodes on the way
 * to a value: an `OperationNodeTransformer` costs more to construct than this whole pass.
 */
export function parameterize(node: unknown, values: unknown[]): unknown {
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    node.forEach((item, i) => {
      const replaced = parameterize(item, values);
      if (replaced === item) return;
      copy ??= [...node];
      copy[i] = replaced;
    });
    return copy ?? node;
  }
  if (node === null || typeof node !== 'object') return node;
  const kind = (node as { kind?: unknown }).kind;
  if (typeof kind !== 'string') return node;
  if (ValueNode.is(node as OperationNode)) {
    const value = node as ValueNode;
    if (value.immediate || value.value instanceof Slot) return node;
    values.push(value.value);
    return ValueNode.create(new Slot(values.length - 1, true));
  }
  if (PrimitiveValueListNode.is(node as OperationNode)) {
    const list = node as PrimitiveValueListNode;
    return ValueListNode.create(
      list.values.map((v) => parameterize(ValueNode.create(v), values) as OperationNode),
    );
  }
  let copy: Record<string, unknown> | undefined;
  const record = node as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    if (child === null || typeof child !== 'object') continue;
    const replaced = parameterize(child, values);
    if (replaced === child) continue;
    copy ??= { ...record };
    copy[key] = replaced;
  }
  return copy ?? node;
}

/**
 * Whether `raw` (a query as a builder made it) has the shape of `template` (an earlier query
 * after `parameterize`), collecting its values into `values` in the order of the template's base
 * `Slot`s when it does. One walk that allocates nothing: it recognises a query built afresh per
 * request without copying its tree or writing it out as text. Anything it does not know (an
 * inline object value, a node without a kind) is a mismatch, never a guess.
 */
export function matchesShape(raw: unknown, template: unknown, values: unknown[]): boolean {
  // An identical subtree was kept as it was by `parameterize`: it holds no value.
  if (raw === template) return true;
  if (typeof raw !== 'object' || raw === null || typeof template !== 'object' || template === null)
    return false;
  if (Array.isArray(raw)) {
    if (!Array.isArray(template) || raw.length !== template.length) return false;
    for (let i = 0; i < raw.length; i += 1) if (!matchesShape(raw[i], template[i], values)) return false;
    return true;
  }
  if (Array.isArray(template)) return false;
  const node = raw as Record<string, unknown>;
  const shape = template as Record<string, unknown>;
  const kind = node.kind;
  if (typeof kind !== 'string') return false;
  if (kind === 'ValueNode') {
    const value = node.value;
    if (node.immediate) {
      return (
        shape.kind === kind &&
        shape.immediate === node.immediate &&
        typeof value !== 'object' &&
        shape.value === value
      );
    }
    return shape.kind === kind && isBaseSlot(shape.value, values.length) && values.push(value) > 0;
  }
  if (kind === 'PrimitiveValueListNode') {
    const list = node.values as readonly unknown[];
    const slots = shape.values as readonly { readonly kind: string; readonly value: unknown }[] | undefined;
    if (shape.kind !== 'ValueListNode' || slots?.length !== list.length) return false;
    for (let i = 0; i < list.length; i += 1) {
      if (slots[i]!.kind !== 'ValueNode' || !isBaseSlot(slots[i]!.value, values.length)) return false;
      values.push(list[i]);
    }
    return true;
  }
  if (shape.kind !== kind) return false;
  let keys = 0;
  for (const key in node) {
    keys += 1;
    const child = node[key];
    const other = shape[key];
    if (child === other) continue;
    if (typeof child !== 'object' || child === null || !matchesShape(child, other, values)) return false;
  }
  for (const _ in shape) keys -= 1;
  return keys === 0;
}

function isBaseSlot(value: unknown, index: number): boolean {
  return value instanceof Slot && value.base && value.index === index;
}

/** The statement's shape as text (its values already taken out by `parameterize`). */
export function shapeKey(node: OperationNode): string {
  try {
    return JSON.stringify(node);
  } catch {
    // Only inline (immediate) bigints get here.
    return JSON.stringify(node, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
  }
}

export function identifierName(node: OperationNode | undefined): string | undefined {
  return node && IdentifierNode.is(node) ? node.name : undefined;
}

/**
 * The columns a WHERE fixes when it is nothing but an AND of equalities between a column and a
 * value (`tenant = ?`, `? = tenant`, `deleted_at is null`), parentheses allowed; `undefined` for
 * any other condition.
 *
 * @example
 * equalityColumns(db.selectFrom('t').where('tenant', '=', 1).where('gone', 'is', null).toOperationNode().where!.where)
 * // ['tenant', 'gone']
 */
export function equalityColumns(node: OperationNode): string[] | undefined {
  const columns: string[] = [];
  for (const conjunct of conjuncts(node)) {
    const column = equalityColumn(conjunct);
    if (column === undefined) return undefined;
    columns.push(column);
  }
  return columns;
}

/**
 * The columns a WHERE fixes by equality whatever else it says: those of its AND-ed equalities
 * between a column and a value (`tenant = ?` in `tenant = ? and score > ?`), so every row it
 * answers shares their values.
 *
 * @example
 * fixedColumns(db.selectFrom('t').where('tenant', '=', 1).where('score', '>', 3).toOperationNode().where!.where)
 * // ['tenant']
 */
export function fixedColumns(node: OperationNode): string[] {
  return conjuncts(node).flatMap((conjunct) => equalityColumn(conjunct) ?? []);
}

/** The conditions `node` AND-s together, parentheses taken off. */
function conjuncts(node: OperationNode): OperationNode[] {
  if (ParensNode.is(node)) return conjuncts(node.node);
  if (AndNode.is(node)) return [...conjuncts(node.left), ...conjuncts(node.right)];
  return [node];
}

/** The column `node` compares with a value by equality (`=`, or `is null`), if it does. */
function equalityColumn(node: OperationNode): string | undefined {
  if (!BinaryOperationNode.is(node) || !OperatorNode.is(node.operator)) return undefined;
  const { leftOperand: left, rightOperand: right } = node;
  const operator = node.operator.operator;
  if (operator === 'is') return ValueNode.is(right) && right.value === null ? columnName(left) : undefined;
  if (operator !== '=') return undefined;
  return ValueNode.is(right) ? columnName(left) : ValueNode.is(left) ? columnName(right) : undefined;
}

export function columnName(node: OperationNode): string | undefined {
  if (ColumnNode.is(node)) return node.column.name;
  if (ReferenceNode.is(node) && ColumnNode.is(node.column)) return node.column.column.name;
  return undefined;
}

export function fieldReference(field: string): OperationNode {
  const dot = field.lastIndexOf('.');
  if (dot < 0) return ReferenceNode.create(ColumnNode.create(field));
  return ReferenceNode.create(ColumnNode.create(field.slice(dot + 1)), TableNode.create(field.slice(0, dot)));
}

/** The row property of `field` (`'articles.id'` -> `'id'`). */
export function rowKeyOf(field: string): string {
  return field.slice(field.lastIndexOf('.') + 1);
}

export function directionOf(item: OrderByItemNode): 'asc' | 'desc' {
  const direction = item.direction;
  if (direction && RawNode.is(direction) && direction.sqlFragments.join('').trim().toLowerCase() === 'desc') {
    return 'desc';
  }
  return 'asc';
}

/** The expression behind `field` in `node`'s selections and whether rows already carry it. */
export function selectionOf(
  node: SelectQueryNode,
  field: string,
): { expr: OperationNode; selected: boolean } {
  const name = rowKeyOf(field);
  let selectsAll = false;
  for (const selection of node.selections ?? []) {
    const s = selection.selection;
    if (SelectAllNode.is(s) || (ReferenceNode.is(s) && SelectAllNode.is(s.column))) {
      selectsAll = true;
    } else if (AliasNode.is(s)) {
      if (identifierName(s.alias) === name) return { expr: s.node, selected: true };
    } else if (columnName(s) === name && (name === field || (ReferenceNode.is(s) && s.table))) {
      return { expr: s, selected: true };
    }
  }
  return { expr: fieldReference(field), selected: selectsAll };
}

/** The result name of a selection (a column, or an alias), `undefined` for `*` and an unnamed expression. */
export function selectionName(s: OperationNode): string | undefined {
  if (AliasNode.is(s)) return identifierName(s.alias);
  if (ReferenceNode.is(s) && SelectAllNode.is(s.column)) return undefined;
  return columnName(s);
}

/**
 * The column `field` names, qualified by its table (`"items"."created"`), where `node` selects it
 * once, as the column as it is (`created`, `items.created`, `created as c` for `c`), beside no
 * `*` and no other selection of that name: the selection another expression can take the place
 * of (`FieldSource.replaceable`). A column without a table is qualified by the query's one FROM
 * item, with no join; `undefined` for anything else.
 */
export function replaceableColumn(node: SelectQueryNode, field: string): OperationNode | undefined {
  const name = rowKeyOf(field);
  let found: OperationNode | undefined;
  for (const selection of node.selections ?? []) {
    const s = selection.selection;
    const selected = selectionName(s);
    // `*`, `t.*`, an expression without an alias: the result's names are not all known.
    if (selected === undefined) return undefined;
    if (selected !== name) continue;
    if (found !== undefined) return undefined;
    const column = AliasNode.is(s) ? s.node : s;
    if (!ReferenceNode.is(column) || !ColumnNode.is(column.column)) return undefined;
    found = column;
  }
  if (found === undefined || !ReferenceNode.is(found)) return undefined;
  if (found.table !== undefined) return found;
  const froms = node.from?.froms ?? [];
  if (froms.length !== 1 || (node.joins?.length ?? 0) > 0) return undefined;
  const from = froms[0]!;
  const table = TableNode.is(from)
    ? from
    : AliasNode.is(from) && IdentifierNode.is(from.alias)
      ? TableNode.create(from.alias.name)
      : undefined;
  return table === undefined ? undefined : ReferenceNode.create(found.column as ColumnNode, table);
}

/** Puts per-fetch values into a cached statement's `Slot` placeholders (the path without `db`). */
export class SlotFiller extends OperationNodeTransformer {
  readonly #values: readonly unknown[];
  readonly #base: readonly unknown[];
  constructor(values: readonly unknown[], base: readonly unknown[]) {
    super();
    this.#values = values;
    this.#base = base;
  }
  protected override transformValue(node: ValueNode): ValueNode {
    const value = node.value;
    if (!(value instanceof Slot)) return node;
    return ValueNode.create(value.base ? this.#base[value.index] : this.#values[value.index]);
  }
}

/**
 * `select * from (<raw>) as "pagewise"`: a plugin may only swap a select for a select, so
 * statements run through the builder (no `db`) are wrapped as one.
 */
export function asSelect(raw: RawNode): SelectQueryNode {
  const derived = AliasNode.create(RawNode.create(['(', ')'], [raw]), IdentifierNode.create('pagewise'));
  return SelectQueryNode.cloneWithSelections(SelectQueryNode.createFrom([derived]), [
    SelectionNode.createSelectAll(),
  ]);
}

/** A plugin that replaces whatever the builder compiles with `node`. */
export function swapPlugin(node: OperationNode): KyselyPlugin {
  return {
    transformQuery: () => node as ReturnType<KyselyPlugin['transformQuery']>,
    transformResult: async (args) => args.result,
  };
}
