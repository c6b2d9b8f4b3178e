// The plugins of the query's Kysely instance see every statement a page runs, counts included: an
// app's row counter, tracer or result rewriter (`db.withPlugin(...)`) is not bypassed by the count
// a page-number or limit/offset page runs. Before, with `db` given, counts ran past the plugins
// (`executor.withoutPlugins()`), so the demo's row counter never saw them.
import { limitOffsetPage, pageNumberPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseTarget,
  databaseTargets,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';

/** Records every result it sees; with `upper`, renames every result column to upper case. */
class Recorder implements KyselyPlugin {
  readonly results: UnknownRow[][] = [];
  constructor(private readonly upper = false) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.results.push(args.result.rows as UnknownRow[]);
    if (!this.upper) return args.result;
    const rows = args.result.rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key.toUpperCase(), value])),
    );
    return { ...args.result, rows };
  }
}

function pluginCases(target: DatabaseTarget): void {
  const table = tableName(`pw_plugins_${target.name}`);
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open();
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await sql`create table ${sql.table(table)} (id integer primary key, title varchar(20) not null)`.execute(
      database.db,
    );
    await database.db
      .insertInto(table)
      .values(Array.from({ length: 7 }, (_, i) => ({ id: i + 1, title: `t${i + 1}` })))
      .execute();
  });
  afterAll(async () => {
    if (!database) return;
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await database.close();
  });

  for (const withDb of [true, false]) {
    const how = withDb ? 'with db' : 'without db';

    it(`[${target.name}] ${how}: count() and the counts of numbered and offset pages pass through the db's plugins`, async () => {
      const recorder = new Recorder();
      const db = database.db.withPlugin(recorder);
      const query = () => fromKysely(db.selectFrom(table).selectAll().orderBy('id'), withDb ? { db } : {});
      /** The results that are a count of the 7 rows: one row of one column. */
      const counts = () =>
        recorder.results.filter(
          (rows) => rows.length === 1 && Object.values(rows[0]!).map(Number).join() === '7',
        );
      expect(await query().count()).toEqual({ value: 7, exact: true });
      expect(counts()).toHaveLength(1);

      recorder.results.length = 0;
      const numbered = await pageNumberPage(query(), 'http://testserver/?page=2', { pageSize: 3 });
      expect(numbered.count).toBe(7);
      const offset = await limitOffsetPage(query(), 'http://testserver/?limit=2&offset=4');
      expect(offset?.count).toBe(7);
      expect(counts()).toHaveLength(2);
      // The windows' rows passed through as well.
      expect(recorder.results.map((rows) => rows.map((row) => row.id).join())).toEqual(
        expect.arrayContaining(['4,5,6', '5,6']),
      );
    });

    it(`[${target.name}] ${how}: a plugin renaming the count's column still counts`, async () => {
      const db = database.db.withPlugin(new Recorder(true));
      const query = fromKysely(db.selectFrom(table).selectAll().orderBy('id'), withDb ? { db } : {});
      expect(await query.count()).toEqual({ value: 7, exact: true });
    });
  }
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'the db plugins and counts', () => pluginCases(target));
}
