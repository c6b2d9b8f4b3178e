// A cursor walk is keyed by `uniqueKey`: when that key repeats, rows that tie on the whole key
// order are skipped or repeated between pages, silently (issue 31, section 4: `uniqueKey:
// 'category'` paged 1,000 rows as 987 distinct ones). Where the catalog lists the table's primary
// key and unique indexes, the adapter refuses a key none of them covers with a
// `ConfigurationError`, from the catalog it reads anyway (no statement of its own); where the
// catalog cannot know (a view, a join, an expression), it accepts the key as given.

import {
  ConfigurationError,
  type CursorResult,
  type OrderedQuery,
  pageNumberPage,
  paginateCursor,
} from '@pagewise/core';
import { fromKysely, type KyselyQueryOptions, StatementCache } from '@pagewise/kysely-adapter';
import { type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { quote } from '../support/tables.js';

const ROWS = 1_000;
type Row = Record<string, unknown>;

/** Row `n` (1 to 1,000): four categories, ties of five on `created`, and a unique key for each index. */
function row(n: number) {
  return {
    id: n,
    category: `c${n % 4}`,
    created: Math.floor(n / 5),
    // Unique together with `category` (n = 4 * seq + n % 4), repeating alone.
    seq: Math.floor(n / 4),
    slug: `s${n}`,
    // Unique where set, but nullable: every tenth row holds NULL.
    code: n % 10 === 0 ? null : `k${n}`,
    // Unique together with `tenant`, repeating across tenants.
    tenant: n % 10,
    ref: Math.floor(n / 10),
  };
}

/** The ids a cursor walk of `query` by `ordering` reads, page after page, in order. */
async function walk(query: OrderedQuery<Row>, ordering: string | string[], pageSize = 7): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 2 * ROWS; pages += 1) {
    const page: CursorResult<Row> = await paginateCursor(query, { pageSize, ordering, cursor });
    ids.push(...page.results.map((r) => Number(r.id)));
    cursor = page.nextCursor;
    if (cursor === null) return ids;
  }
  throw new Error('the walk did not end');
}

/** What a walk came to: the error it was refused with, or how many rows it read and how many distinct ones. */
async function outcome(query: OrderedQuery<Row>, ordering: string | string[]): Promise<unknown> {
  return walk(query, ordering).then(
    (ids) => ({ rows: ids.length, distinct: new Set(ids).size }),
    (error: unknown) => error,
  );
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'uniqueKey covered by a primary key or unique index (kysely adapter)', () => {
    let database: TestDatabase;
    const sent: string[] = [];
    const table = tableName(`pw_uk_${target.name}`);
    const view = `${table}_v`;
    const parted = `${table}_p`;
    const postgres = target.name === 'postgres' || target.name === 'pglite';
    const mysql = target.name === 'mariadb';

    beforeAll(async () => {
      database = await target.open((event: LogEvent) => {
        if (event.level === 'query') sent.push(event.query.sql);
      });
      const { db } = database;
      const q = (name: string) => quote(database, name);
      await sql.raw(`drop view if exists ${q(view)}`).execute(db);
      for (const t of [parted, table]) await sql.raw(`drop table if exists ${q(t)}`).execute(db);
      await sql
        .raw(
          `create table ${q(table)} (${q('id')} integer primary key, ${q('category')} varchar(20) not null,
            ${q('created')} integer not null, ${q('seq')} integer not null, ${q('slug')} varchar(40) not null,
            ${q('code')} varchar(40), ${q('tenant')} integer not null, ${q('ref')} integer not null)`,
        )
        .execute(db);
      const indexes: Record<string, string> = {
        category_seq: 'category, seq',
        slug: 'slug',
        code: 'code',
        tenant_ref: 'tenant, ref',
      };
      for (const [name, columns] of Object.entries(indexes)) {
        const list = columns.split(', ').map(q).join(', ');
        await sql.raw(`create unique index ${q(`${table}_${name}`)} on ${q(table)} (${list})`).execute(db);
      }
      // A partial unique index holds for the rows its WHERE picks only (MySQL and MariaDB have none).
      if (!mysql) {
        await sql
          .raw(
            `create unique index ${q(`${table}_created_partial`)} on ${q(table)} (${q('created')}) where ${q('created')} < 0`,
          )
          .execute(db);
      }
      const rows = Array.from({ length: ROWS }, (_, i) => row(i + 1));
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto(table)
          .values(rows.slice(i, i + 200))
          .execute();
      }
      await sql.raw(`create view ${q(view)} as select * from ${q(table)}`).execute(db);
      if (postgres) {
        // Partitioned by `created`: a unique index of the parent must hold the partition key.
        await sql
          .raw(
            `create table ${q(parted)} (id integer not null, created integer not null, primary key (id, created))
               partition by range (created)`,
          )
          .execute(db);
        await sql
          .raw(
            `create table ${q(`${parted}_a`)} partition of ${q(parted)} for values from (minvalue) to (100)`,
          )
          .execute(db);
        await sql
          .raw(
            `create table ${q(`${parted}_b`)} partition of ${q(parted)} for values from (100) to (maxvalue)`,
          )
          .execute(db);
        await sql.raw(`insert into ${q(parted)} select id, created from ${q(table)}`).execute(db);
      }
    });

    afterAll(async () => {
      if (!database) return;
      const q = (name: string) => quote(database, name);
      await sql.raw(`drop view if exists ${q(view)}`).execute(database.db);
      for (const t of [parted, table]) await sql.raw(`drop table if exists ${q(t)}`).execute(database.db);
      await database.close();
    });

    const items = (options: KyselyQueryOptions = {}) =>
      fromKysely(database.db.selectFrom(table).selectAll(), {
        db: database.db,
        ...options,
      }) as OrderedQuery<Row>;

    it(`a walk keyed by "category" (4 values) is refused, not paged as fewer than ${ROWS} distinct rows`, async () => {
      const result = await outcome(items({ uniqueKey: 'category' }), '-created');
      // Before the check, this is where the walk's { rows, distinct } showed.
      expect(result).toBeInstanceOf(ConfigurationError);
    });

    it('the refusal says why and how to fix it', async () => {
      const error = (await outcome(items({ uniqueKey: 'category' }), '-created')) as Error;
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toContain('uniqueKey "category"');
      expect(error.message).toContain('no primary key or unique index');
      expect(error.message).toContain(table);
      expect(error.message).toContain("uniqueKey: 'id'");
      expect(error.message).toContain('uniqueKey: null');
    });

    it(`the primary key pages all ${ROWS} rows once`, async () => {
      const ids = await walk(items(), '-created');
      expect(ids).toHaveLength(ROWS);
      expect(new Set(ids).size).toBe(ROWS);
    });

    it('a composite unique index covers the ordering that holds its other columns', async () => {
      const ids = await walk(items({ uniqueKey: 'seq' }), ['category', 'seq']);
      expect(new Set(ids).size).toBe(ROWS);
      expect(ids).toHaveLength(ROWS);
      // Without `category` in the ordering, `seq` repeats: refused.
      expect(await outcome(items({ uniqueKey: 'seq' }), '-created')).toBeInstanceOf(ConfigurationError);
    });

    it('a unique index on a NOT NULL column covers it alone', async () => {
      const ids = await walk(items({ uniqueKey: 'slug' }), '-created');
      expect(new Set(ids).size).toBe(ROWS);
    });

    it('a unique index on a nullable column does not: NULLs repeat, and the message says so', async () => {
      const error = (await outcome(items({ uniqueKey: 'code' }), '-created')) as Error;
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toContain('NULL');
    });

    it('columns a WHERE fixes by equality count: (tenant, ref) covers "ref" where tenant = 3', async () => {
      const { db } = database;
      const tenant = fromKysely(db.selectFrom(table).selectAll().where('tenant', '=', 3), {
        db,
        uniqueKey: 'ref',
      }) as OrderedQuery<Row>;
      const ids = await walk(tenant, 'ref');
      expect(ids).toHaveLength(ROWS / 10);
      expect(new Set(ids).size).toBe(ROWS / 10);
      expect(await outcome(items({ uniqueKey: 'ref' }), 'ref')).toBeInstanceOf(ConfigurationError);
    });

    // MySQL and MariaDB have no partial indexes: the case exists on the other dialects only.
    if (!mysql) {
      it('a partial unique index does not count: it holds for some rows only', async () => {
        expect(await outcome(items({ uniqueKey: 'created' }), 'created')).toBeInstanceOf(ConfigurationError);
      });
    }

    it("uniqueKey: null is never checked: DRF's position + offset cursors need no unique key", async () => {
      const page = await paginateCursor(items({ uniqueKey: null }), { pageSize: 7, ordering: '-created' });
      expect(page.results).toHaveLength(7);
      expect(page.nextCursor).not.toBeNull();
    });

    it('offset pages never use the key: a repeating one is not refused there', async () => {
      const { db } = database;
      const query = fromKysely(db.selectFrom(table).selectAll().orderBy('category').orderBy('id'), {
        db,
        uniqueKey: 'category',
      });
      const page = await pageNumberPage(query, 'http://testserver/items/', { pageSize: 10 });
      expect(page.rows).toHaveLength(10);
    });

    it('where the catalog cannot know, the key is taken as given: a view, a join, an expression, a declared column', async () => {
      const { db } = database;
      const first = (query: OrderedQuery<Row>, ordering: string) =>
        paginateCursor(query, { pageSize: 5, ordering }).then((page) => page.results.length);
      // A view has no indexes of its own (Postgres, SQLite, MySQL alike).
      expect(
        await first(
          fromKysely(db.selectFrom(view).selectAll(), { db, uniqueKey: 'category' }) as OrderedQuery<Row>,
          '-created',
        ),
      ).toBe(5);
      // A join may repeat any key of either table, and a key repeating in its table may not repeat in the join.
      const joined = db
        .selectFrom(`${table} as a`)
        .innerJoin(`${table} as b`, 'a.id', 'b.id')
        .select(['a.id', 'a.category', 'a.created']);
      expect(
        await first(fromKysely(joined, { db, uniqueKey: 'a.category' }) as OrderedQuery<Row>, '-created'),
      ).toBe(5);
      const labelled = db
        .selectFrom(table)
        .select(['id', 'created', sql<string>`upper(category)`.as('label')]);
      expect(
        await first(
          fromKysely(labelled, { db, uniqueKey: 'label', columns: { label: 'string' } }) as OrderedQuery<Row>,
          '-created',
        ),
      ).toBe(5);
      // Declaring the key's column in `columns` takes it off the catalog: the declaration is trusted.
      expect(await first(items({ uniqueKey: 'category', columns: { category: 'string' } }), '-created')).toBe(
        5,
      );
    });

    it('the check costs no statement: a refusal runs no page, and a walk sends one statement a page', async () => {
      const statementCache = new StatementCache();
      const query = () => items({ uniqueKey: 'category', statementCache });
      expect(await outcome(query(), '-created')).toBeInstanceOf(ConfigurationError);
      sent.length = 0;
      expect(await outcome(query(), '-created')).toBeInstanceOf(ConfigurationError);
      expect(sent).toEqual([]);
      const keyed = items({ statementCache });
      let page = await paginateCursor(keyed, { pageSize: 100, ordering: '-created' });
      for (let pages = 1; page.nextCursor !== null; pages += 1) {
        sent.length = 0;
        page = await paginateCursor(keyed, { pageSize: 100, ordering: '-created', cursor: page.nextCursor });
        expect(sent, `page ${pages + 1}`).toHaveLength(1);
      }
    });

    if (postgres) {
      it('a partitioned table: the parent primary key (id, created) covers "id" when the ordering holds "created"', async () => {
        const { db } = database;
        const query = (uniqueKey: string) =>
          fromKysely(db.selectFrom(parted).selectAll(), { db, uniqueKey }) as OrderedQuery<Row>;
        const ids = await walk(query('id'), '-created', 50);
        expect(new Set(ids).size).toBe(ROWS);
        expect(await outcome(query('id'), 'id')).toBeInstanceOf(ConfigurationError);
      });
    }
  });
}
