// Fails CI (never skips) when a database server named by PG_URL / MYSQL_URL is unreachable.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/package.json', import.meta.url));
const { Client } = require('pg');
const mysql = require('mysql2/promise');

async function check(name, url, probe) {
  if (!url) throw new Error(`${name} is not set`);
  try {
    const version = await probe(url);
    console.log(`${name}: ${version}`);
  } catch (error) {
    console.error(`${name} (${url}) is unreachable: ${error.message}`);
    process.exitCode = 1;
  }
}

await check('PG_URL', process.env.PG_URL, async (url) => {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query('select version() as v')).rows[0].v;
  } finally {
    await client.end();
  }
});
await check('MYSQL_URL', process.env.MYSQL_URL, async (url) => {
  const connection = await mysql.createConnection({ uri: url, connectTimeout: 5000 });
  try {
    const [rows] = await connection.query('select version() as v');
    return rows[0].v;
  } finally {
    await connection.end();
  }
});
