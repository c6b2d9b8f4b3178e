import Database from 'better-sqlite3';

/**
 * Writes the bench table into `db` as `table` (`rows` rows: 8 per second of `created`, every
 * fifth `score` NULL) with the two indexes the orderings range on, `(created desc, id desc)` and
 * `(created desc, id asc)`, then `ANALYZE`: the orm bench's SQLite file and the in-memory tables
 * of the SQLite scripts alike.
 *
 * @example
 * seedSqliteItems(new Database(':memory:'), 'items', 20_000);
 */
export function seedSqliteItems(db: Database.Database, table: string, rows: number): void {
  db.exec(
    `CREATE TABLE ${table} (id integer PRIMARY KEY, created datetime NOT NULL, score integer, title text NOT NULL)`,
  );
  db.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
     INSERT INTO ${table} SELECT i,
       strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + ((i * 2654435761) % ${rows}) / 8, 'unixepoch'),
       CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 48271) % 1000 END, 'item ' || i FROM n`,
  );
  db.exec(`CREATE INDEX ${table}_created_id_desc ON ${table} (created DESC, id DESC)`);
  db.exec(`CREATE INDEX ${table}_created_desc_id_asc ON ${table} (created DESC, id ASC)`);
  db.exec('ANALYZE');
}

/**
 * An in-memory SQLite database holding the bench table as `items` (`seedSqliteItems`): the orm
 * bench's SQLite table without the file.
 *
 * @example
 * const db = memoryItems(20_000);
 */
export function memoryItems(rows: number): Database.Database {
  const db = new Database(':memory:');
  seedSqliteItems(db, 'items', rows);
  return db;
}
