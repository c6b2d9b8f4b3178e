import pg from 'pg';

/**
 * Creates the database named in `url` when it does not exist, connecting to the server's
 * `postgres` database to do so. Benchmarks get their own database so that a million seeded rows
 * never slow down or disturb the test database.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`Unsupported benchmark database name "${name}"`);
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  } finally {
    await probe.end().catch(() => {});
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    // Two runs starting at once: the other one created it.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

/** A small pool, as the issue asks: the benchmark runs one query at a time per contender. */
export function smallPool(url: string, max: number): pg.Pool {
  return new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 0 });
}

/** `SELECT version()` shortened to `PostgreSQL 15.20`, plus the settings that shape the timings. */
export async function serverInfo(
  pool: pg.Pool,
): Promise<{ version: string; settings: Record<string, string> }> {
  const { rows } = await pool.query<{ v: string }>('SELECT version() AS v');
  const version = /^PostgreSQL [\d.]+/.exec(rows[0]?.v ?? '')?.[0] ?? rows[0]?.v ?? 'unknown';
  const settings: Record<string, string> = {};
  for (const name of [
    'shared_buffers',
    'work_mem',
    'jit',
    'max_parallel_workers_per_gather',
    'random_page_cost',
  ]) {
    const result = await pool.query<Record<string, string>>(`SHOW ${name}`);
    settings[name] = String(Object.values(result.rows[0] ?? {})[0] ?? '');
  }
  return { version, settings };
}
