// Configuration mistakes in a Kysely query are reported on the first page as `ConfigurationError`
// with the fix in the message, never as the raw database error at request time (issue 10, item 5).

import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/rest';
import { CamelCasePlugin, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { quote } from '../support/tables.js';

const request = () => new ApiRequest({ url: 'http://testserver/items/' });

/** A type every backend can order by but a cursor cannot carry. */
function blobType(database: TestDatabase): string {
  if (database.dialect === 'postgres') return 'bytea';
  return 'blob';
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'configuration errors (kysely adapter)', () => {
    let database: TestDatabase;
    const parent = tableName('pw_cfg_parent');
    const child = tableName('pw_cfg_child');
    const keyless = tableName('pw_cfg_keyless');
    const posts = tableName('pw_cfg_posts');

    beforeAll(async () => {
      database = await target.open();
      const { db } = database;
      const q = (name: string) => quote(database, name);
      for (const table of [child, parent, keyless, posts])
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      await sql
        .raw(
          `create table ${q(posts)} (${q('id')} integer primary key, ${q('created_at')} varchar(20) not null, ${q('title')} varchar(40) not null)`,
        )
        .execute(db);
      await sql
        .raw(
          `create table ${q(parent)} (${q('id')} integer primary key, ${q('title')} varchar(40) not null, ${q('data')} ${blobType(database)} not null)`,
        )
        .execute(db);
      await sql
        .raw(
          `create table ${q(child)} (${q('id')} integer primary key, ${q('parent_id')} integer not null, ${q('note')} varchar(40) not null)`,
        )
        .execute(db);
      await sql
        .raw(
          `create table ${q(keyless)} (${q('item_id')} integer primary key, ${q('title')} varchar(40) not null)`,
        )
        .execute(db);
      for (let i = 1; i <= 5; i += 1) {
        await sql
          .raw(
            `insert into ${q(parent)} values (${i}, 't${i}', ${database.dialect === 'postgres' ? `'\\x0${i}'` : `x'0${i}'`})`,
          )
          .execute(db);
        await sql.raw(`insert into ${q(child)} values (${i * 10}, ${i}, 'n${i}')`).execute(db);
        await sql.raw(`insert into ${q(keyless)} values (${i}, 't${i}')`).execute(db);
      }
    });

    afterAll(async () => {
      if (!database) return;
      for (const table of [child, parent, keyless, posts])
        await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    });

    /** The first cursor page's failure (or `null` when it succeeds). */
    async function firstCursorPage(query: OrderedQuery<unknown>, ordering: string): Promise<unknown> {
      try {
        await new CursorPagination({ pageSize: 2, ordering }).paginateQueryset(query, request());
        return null;
      } catch (error) {
        return error;
      }
    }

    const joined = () =>
      database.db.selectFrom(parent).innerJoin(child, `${child}.parent_id`, `${parent}.id`).selectAll();

    it('an ambiguous uniqueKey in a join is a ConfigurationError naming both tables and the fix', async () => {
      const error = await firstCursorPage(fromKysely(joined(), { db: database.db }), 'title');
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = (error as Error).message;
      expect(message).toContain('"id"');
      expect(message).toContain('ambiguous');
      expect(message).toContain(parent);
      expect(message).toContain(child);
      expect(message).toContain(`uniqueKey: '${parent}.id'`);
    });

    it('the qualified uniqueKey the message suggests pages the join', async () => {
      const query = fromKysely(joined(), { db: database.db, uniqueKey: `${parent}.id` });
      const rows = await new CursorPagination({ pageSize: 2, ordering: 'title' }).paginateQueryset(
        query,
        request(),
      );
      expect(rows?.map((row) => (row as { title: string }).title)).toEqual(['t1', 't2']);
    });

    it('an ambiguous ordering field in a join is a ConfigurationError', async () => {
      const query = fromKysely(joined(), { db: database.db, uniqueKey: `${parent}.id` });
      const error = await firstCursorPage(query, '-id');
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/ordering field "id" is ambiguous/);
    });

    it('a uniqueKey that is not a column is a ConfigurationError saying how to fix it', async () => {
      const query = fromKysely(database.db.selectFrom(keyless).selectAll(), { db: database.db });
      const error = await firstCursorPage(query, 'title');
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = (error as Error).message;
      expect(message).toContain(`uniqueKey "id" is not a column of "${keyless}"`);
      expect(message).toContain('uniqueKey');
      expect(message).toContain('null');
    });

    it('an unknown ordering field is a ConfigurationError, for cursors and for offset pages', async () => {
      const query = fromKysely(database.db.selectFrom(parent).selectAll(), { db: database.db });
      const error = await firstCursorPage(query, '-published');
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toContain(`ordering field "published" is not a column of "${parent}"`);

      const ordered = query.orderBy([{ field: 'published', direction: 'asc' }]);
      const offsetError = await new PageNumberPagination({ pageSize: 2 })
        .paginateQueryset(ordered, request())
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(offsetError).toBeInstanceOf(ConfigurationError);
      expect((offsetError as Error).message).toContain('"published"');
    });

    it('an unknown field is answered with the nearest column: "did you mean"', async () => {
      const { db } = database;
      const query = fromKysely(db.selectFrom(posts).selectAll(), { db });
      const messageOf = async (q: OrderedQuery<unknown>, ordering: string) =>
        ((await firstCursorPage(q, ordering)) as Error | null)?.message ?? '';
      expect(await messageOf(query, '-createdAt')).toBe(
        `kysely adapter: ordering field "createdAt" is not a column of "${posts}" (did you mean ` +
          '"created_at"?); order by a column of the query, or select the expression under that name',
      );
      expect(await messageOf(query, 'titel')).toContain('(did you mean "title"?)');
      expect(await messageOf(query, `${posts}.titl`)).toContain(`(did you mean "${posts}.title"?)`);
      // Nothing near: no guess.
      expect(await messageOf(query, 'published')).not.toContain('did you mean');
      const keyed = fromKysely(db.selectFrom(posts).selectAll(), { db, uniqueKey: 'ids' });
      expect(await messageOf(keyed, 'title')).toContain('uniqueKey "ids" is not a column of');
      expect(await messageOf(keyed, 'title')).toContain('(did you mean "id"?)');
      // Under CamelCasePlugin, in the names the rows have.
      const camel = db.withPlugin(new CamelCasePlugin());
      expect(
        await messageOf(fromKysely(camel.selectFrom(posts).selectAll(), { db: camel }), '-creatdAt'),
      ).toContain('ordering field "creatdAt" is not a column of');
      expect(
        await messageOf(fromKysely(camel.selectFrom(posts).selectAll(), { db: camel }), '-creatdAt'),
      ).toContain('(did you mean "createdAt"?)');
    });

    it('names the database would resolve are not refused: other letter case, columns added later', async () => {
      const query = () =>
        fromKysely(database.db.selectFrom(keyless).selectAll(), { db: database.db, uniqueKey: 'item_id' });
      // SQLite and MySQL match column names in any case. (On Postgres the check does not settle
      // a name in another case either: catalogs alone do not say how the dialect compares names.)
      if (database.dialect !== 'postgres') expect(await firstCursorPage(query(), 'TITLE')).toBeNull();
      // A column added after the catalog was read (a migration while the server runs).
      expect(await firstCursorPage(query(), 'title')).toBeNull();
      await sql
        .raw(
          `alter table ${quote(database, keyless)} add ${quote(database, 'rank')} integer not null default 0`,
        )
        .execute(database.db);
      expect(await firstCursorPage(query(), '-rank')).toBeNull();
    });

    it('a column type a cursor cannot carry is refused on the first page, naming column and type', async () => {
      const query = fromKysely(database.db.selectFrom(parent).selectAll(), { db: database.db });
      const error = await firstCursorPage(query, 'data');
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = (error as Error).message;
      expect(message).toContain('"data"');
      expect(message).toContain(blobType(database));
      expect(message).toContain('columns');
      // Offset pages never put the value into a cursor: ordering by it stays allowed there.
      const rows = await new PageNumberPagination({ pageSize: 2 }).paginateQueryset(
        query.orderBy([{ field: 'data', direction: 'desc' }]),
        request(),
      );
      expect(rows?.map((row) => Number((row as { id: unknown }).id))).toEqual([5, 4]);
    });
  });
}
