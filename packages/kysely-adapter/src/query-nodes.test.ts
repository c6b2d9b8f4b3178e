import {
  createQueryId,
  DummyDriver,
  Kysely,
  type OperationNode,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SelectionNode,
  SelectQueryNode,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  equalityColumns,
  fixedColumns,
  matchesShape,
  parameterize,
  replaceableColumn,
  shapeKey,
} from './query-nodes.js';

interface DB {
  items: { id: number; name: string; created: Date; tenant: number; gone: Date | null };
  tenants: { id: number; name: string; created: Date };
}

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const query = (id: number, names: string[]) =>
  db
    .selectFrom('items')
    .selectAll()
    .where('id', '>', id)
    .where('name', 'in', names)
    .limit(10)
    .toOperationNode();

/** `raw` matched against the parameterized `template`: the values, or null when it does not match. */
function match(template: OperationNode, raw: OperationNode): unknown[] | null {
  const values: unknown[] = [];
  return matchesShape(raw, parameterize(template, []), values) ? values : null;
}

describe('matchesShape: a query recognised by one walk, as parameterize + shapeKey would', () => {
  it('matches the same builder chain with other values, collecting them in parameterize order', () => {
    const raw = query(7, ['a', 'b']);
    const expected: unknown[] = [];
    parameterize(raw, expected);
    expect(match(query(1, ['x', 'y']), raw)).toEqual(expected);
    expect(expected).toEqual([7, 'a', 'b', 10]);
  });

  it('refuses whatever parameterize would key differently', () => {
    const template = query(1, ['x', 'y']);
    const others = [
      query(1, ['x']), // a list of another length
      db.selectFrom('items').selectAll().where('id', '<', 1).where('name', 'in', ['x', 'y']).limit(10),
      db.selectFrom('items').select('id').where('id', '>', 1).where('name', 'in', ['x', 'y']).limit(10),
      db.selectFrom('items').selectAll().where('id', '>', 1).where('name', 'in', ['x', 'y']),
      db
        .selectFrom('items')
        .selectAll()
        .where('id', '>', 1)
        .where('name', 'in', ['x', 'y'])
        .limit(10)
        .offset(5),
    ].map((q) => ('toOperationNode' in q ? q.toOperationNode() : q));
    for (const other of others) {
      expect(match(template, other)).toBeNull();
      expect(shapeKey(parameterize(other, []) as OperationNode)).not.toBe(
        shapeKey(parameterize(template, []) as OperationNode),
      );
    }
  });

  it('inline values are part of the shape: equal primitives match, objects never do', () => {
    const inline = (value: unknown) =>
      db
        .selectFrom('items')
        .selectAll()
        .where(sql<boolean>`id > ${sql.lit(value as number)}`)
        .toOperationNode();
    expect(match(inline(3), inline(3))).toEqual([]);
    expect(match(inline(3), inline(4))).toBeNull();
    const date = new Date(0);
    expect(match(inline(date), inline(date))).toBeNull();
  });
});

describe('equalityColumns: the columns a WHERE of equalities fixes', () => {
  const where = (query: { toOperationNode(): { where?: { where: OperationNode } } }) =>
    equalityColumns(query.toOperationNode().where!.where);

  it('reads column = value either way round, IS NULL, ANDs and parentheses', () => {
    expect(where(db.selectFrom('items').where('tenant', '=', 1))).toEqual(['tenant']);
    expect(where(db.selectFrom('items').where('tenant', '=', 1).where('gone', 'is', null))).toEqual([
      'tenant',
      'gone',
    ]);
    expect(
      where(
        db
          .selectFrom('items')
          .where((eb) => eb.and([eb(eb.val(1), '=', eb.ref('items.tenant')), eb('name', '=', 'a')])),
      ),
    ).toEqual(['tenant', 'name']);
    // A parameterized shape (the statement cache's) is read the same way.
    const node = parameterize(db.selectFrom('items').where('tenant', '=', 1).toOperationNode(), []) as {
      where: { where: OperationNode };
    };
    expect(equalityColumns(node.where.where)).toEqual(['tenant']);
  });

  it('answers nothing for any other condition, anywhere in the AND', () => {
    expect(where(db.selectFrom('items').where('tenant', '<', 1))).toBeUndefined();
    expect(where(db.selectFrom('items').where('tenant', '=', 1).where('name', 'like', 'a%'))).toBeUndefined();
    expect(where(db.selectFrom('items').where('gone', 'is not', null))).toBeUndefined();
    expect(
      where(
        db
          .selectFrom('items')
          .where('tenant', '=', 1)
          .where('gone', 'is', new Date(0) as never),
      ),
    ).toBeUndefined();
    expect(
      where(db.selectFrom('items').where((eb) => eb.or([eb('tenant', '=', 1), eb('tenant', '=', 2)]))),
    ).toBeUndefined();
    // Two columns compared with each other fix neither.
    expect(where(db.selectFrom('items').where((eb) => eb('tenant', '=', eb.ref('id'))))).toBeUndefined();
    expect(where(db.selectFrom('items').where(sql<boolean>`tenant = 1`))).toBeUndefined();
  });
});

describe('fixedColumns: the columns a WHERE fixes by equality, whatever else it says', () => {
  const where = (query: { toOperationNode(): { where?: { where: OperationNode } } }) =>
    fixedColumns(query.toOperationNode().where!.where);

  it('reads the AND-ed equalities beside any other condition, and none under an OR', () => {
    expect(where(db.selectFrom('items').where('tenant', '=', 1).where('id', '>', 3))).toEqual(['tenant']);
    expect(
      where(
        db
          .selectFrom('items')
          .where((eb) => eb.and([eb('id', '<', 1), eb(eb.val('a'), '=', eb.ref('name'))])),
      ),
    ).toEqual(['name']);
    expect(
      where(db.selectFrom('items').where((eb) => eb.or([eb('tenant', '=', 1), eb('tenant', '=', 2)]))),
    ).toEqual([]);
    expect(where(db.selectFrom('items').where((eb) => eb('tenant', '=', eb.ref('id'))))).toEqual([]);
  });
});

describe('replaceableColumn', () => {
  /** The column as SQL. */
  const compiled = (column: OperationNode) =>
    new PostgresQueryCompiler().compileQuery(
      SelectQueryNode.cloneWithSelections(SelectQueryNode.create(), [SelectionNode.create(column as never)]),
      createQueryId(),
    ).sql;
  /** The column `field` names in `node`, qualified, as SQL; `undefined`: not replaceable. */
  const of = (node: OperationNode, field: string) => {
    const column = replaceableColumn(node as never, field);
    return column === undefined ? undefined : compiled(column);
  };

  it('qualifies a column selected as it is by the one table, or its alias', () => {
    expect(of(db.selectFrom('items').select(['id', 'created']).toOperationNode(), 'created')).toBe(
      'select "items"."created"',
    );
    expect(of(db.selectFrom('items as i').select(['i.id', 'created']).toOperationNode(), 'created')).toBe(
      'select "i"."created"',
    );
    expect(of(db.selectFrom('items').select(['id', 'created as c']).toOperationNode(), 'c')).toBe(
      'select "items"."created"',
    );
  });

  it('keeps a qualified column across a join; refuses an unqualified one there', () => {
    const joined = db.selectFrom('items').innerJoin('tenants', 'tenants.id', 'items.tenant');
    expect(of(joined.select(['items.id', 'items.created']).toOperationNode(), 'items.created')).toBe(
      'select "items"."created"',
    );
    expect(of(joined.select(['items.id', 'gone']).toOperationNode(), 'gone')).toBeUndefined();
  });

  it('refuses `*`, an expression, a name selected twice and a column not selected', () => {
    expect(of(db.selectFrom('items').selectAll().toOperationNode(), 'created')).toBeUndefined();
    expect(
      of(db.selectFrom('items').selectAll().select('created').toOperationNode(), 'created'),
    ).toBeUndefined();
    expect(
      of(
        db
          .selectFrom('items')
          .select(['id', sql<Date>`now()`.as('created')])
          .toOperationNode(),
        'created',
      ),
    ).toBeUndefined();
    expect(
      of(db.selectFrom('items').select(['created', 'gone as created']).toOperationNode(), 'created'),
    ).toBeUndefined();
    expect(of(db.selectFrom('items').select(['id']).toOperationNode(), 'created')).toBeUndefined();
  });
});
