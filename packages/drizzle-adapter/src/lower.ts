import { type OrderItem, Slot, type SqlPart } from '@pagewise/sql';
import { is, SQL, sql } from 'drizzle-orm';

// Lowering `@pagewise/sql`'s fragments into Drizzle's `sql`: text around parts is `sql.raw`, an
// identifier `sql.identifier` (qualified ones joined by dots), a bound value a param, a literal
// `sql.raw` of the quoted constant, a slot a named placeholder (filled when the statement runs),
// and a node part the Drizzle column or `SQL` it wraps.

/** The placeholder name of a slot: `s0` for a window value, `b0` for a value of the query's own clauses. */
export function slotName(slot: Slot): string {
  return `${slot.base ? 'b' : 's'}${slot.index}`;
}

/**
 * A fragment part as Drizzle SQL.
 * @example
 * lower(sql`${node(posts.id)} > ${new Slot(0)}`) // sql`${posts.id} > ${sql.placeholder('s0')}`
 */
export function lower(part: SqlPart): SQL {
  if (part instanceof Slot) return sql`${sql.placeholder(slotName(part))}`;
  switch (part.kind) {
    case 'fragment': {
      const chunks: SQL[] = [];
      part.strings.forEach((text, i) => {
        if (text !== '') chunks.push(sql.raw(text));
        const inner = part.parts[i];
        if (inner !== undefined) chunks.push(lower(inner));
      });
      return sql.join(chunks);
    }
    case 'identifier':
      return sql.join(
        part.names.map((name) => sql`${sql.identifier(name)}`),
        sql.raw('.'),
      );
    case 'value':
      return sql`${part.value}`;
    case 'literal':
      return sql.raw(
        typeof part.value === 'number' ? String(part.value) : `'${part.value.replaceAll("'", "''")}'`,
      );
    case 'node':
      return is(part.node, SQL) ? part.node : sql`${part.node as SQL}`;
  }
}

/**
 * `@pagewise/sql`'s ORDER BY items as Drizzle SQL: `expr direction [nulls first|last]`.
 * @example
 * lowerOrderItems([{ expr: node(posts.createdAt), direction: 'desc', nulls: 'last' }]) // "posts"."created_at" desc nulls last
 */
export function lowerOrderItems(items: readonly OrderItem[]): SQL[] {
  return items.map((item) => {
    const nulls = item.nulls === undefined ? '' : ` nulls ${item.nulls}`;
    return sql`${lower(item.expr)} ${sql.raw(`${item.direction}${nulls}`)}`;
  });
}
