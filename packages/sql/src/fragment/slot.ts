/**
 * A parameter placeholder filled per run: an index into the window's values, or with `base`
 * into the values of the query's own clauses (so one compiled statement serves every query of
 * the same shape, whatever its values). An ORM lowers it into its own placeholder (Kysely: a
 * `ValueNode` holding the slot, swapped for the value when the statement runs; Drizzle: a
 * `sql.placeholder(...)`).
 *
 * @example
 * sql`${node(column)} > ${new Slot(0)}` // "created" > $1, $1 the window's value 0
 */
export class Slot {
  constructor(
    readonly index: number,
    readonly base = false,
  ) {}
}
