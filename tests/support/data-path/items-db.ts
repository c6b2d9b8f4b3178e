import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';

/** A row of the scenarios' table. */
export interface Item {
  id: number;
  created: string;
  title: string;
}

/** In-memory SQLite with 300 items on an index of `(created, id)`: the table both scenarios page. */
export async function itemsDb(): Promise<Kysely<{ items: Item }>> {
  const db = new Kysely<{ items: Item }>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
  });
  await sql`create table items (id integer primary key, created text not null, title text not null)`.execute(
    db,
  );
  await sql`create index items_created_id on items (created, id)`.execute(db);
  for (let i = 1; i <= 300; i += 1) {
    await db
      .insertInto('items')
      .values({ id: i, created: new Date(Date.UTC(2024, 0, 1, 0, i % 97)).toISOString(), title: `t${i}` })
      .execute();
  }
  return db;
}
