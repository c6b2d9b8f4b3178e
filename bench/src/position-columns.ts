/**
 * `pnpm --filter @pagewise/bench exec tsx src/position-columns.ts [--named] [--table NAME]`: what a
 * position column costs the raw keyset statement over a stock pg pool, by expression (`to_char`,
 * `cast(x as text)`, `to_json`, `extract(epoch)`, the bare column again, a DateStyle guard; as
 * controls a constant and an integer's text; and the text selected in place of the column), each
 * beside the statement without it, sampled round-robin in random order (3000 rounds, the first
 * 300 untimed); medians and ratios to the statement without a position column. Needs the table
 * `orm-bench.ts` seeds (1M rows).
 */
import pg from 'pg';

const args = process.argv.slice(2);
const table = args.includes('--table') ? args[args.indexOf('--table') + 1]! : 'h_perf_bench_items';
const pool = new pg.Pool({
  connectionString:
    process.env.BENCH_DATABASE_URL ?? process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: 2,
});
const base = `select "id", "created", "score", "title"`;
const tail = ` from "${table}" where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit 51`;
const v = ['2024-01-02 10:43:13.000000+00', 656268];
const TC = `coalesce(to_char("created" at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"+00" BC'), cast("created" as text))`;
const variants: Record<string, string> = {
  hand: base + tail,
  tochar: base + `, ${TC} as "pagewise0"` + tail,
  cast: base + `, cast("created" as text) as "pagewise0"` + tail,
  json: base + `, to_json("created") as "pagewise0"` + tail,
  epoch: base + `, extract(epoch from "created") as "pagewise0"` + tail,
  // Controls: any extra column costs its framing and the driver's per-field work.
  constant: base + `, 1 as "pagewise0"` + tail,
  idText: base + `, cast("id" as text) as "pagewise0"` + tail,
  // The text in place of the column (no extra column, no Date parse by pg). ORDER BY must name the
  // table's column: a bare "created" would name the text output column (a full sort: 145 ms here).
  inPlace:
    `select "id", cast("created" as text) as "created", "score", "title" from "${table}" ` +
    `where ("created", "id") < ($1, $2) order by "${table}"."created" desc, "id" desc limit 51`,
  again: base + `, "created" as "pagewise0"` + tail,
  guard:
    base +
    `, case when (select current_setting('DateStyle') like 'ISO%') then cast("created" as text) else ${TC} end as "pagewise0"` +
    tail,
  guard2:
    base +
    `, case when current_setting('DateStyle') like 'ISO%' then cast("created" as text) else ${TC} end as "pagewise0"` +
    tail,
};
const named = args.includes('--named');
const stats: Record<string, number[]> = {};
for (const k of Object.keys(variants)) stats[k] = [];
for (let round = 0; round < 3000; round++) {
  for (const [k, text] of Object.entries(variants).sort(() => Math.random() - 0.5)) {
    const t = performance.now();
    await pool.query(named ? { name: k, text, values: v } : { text, values: v });
    if (round >= 300) stats[k]!.push(performance.now() - t);
  }
}
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
for (const [k, a] of Object.entries(stats))
  console.log(k, (med(a) * 1000).toFixed(1), 'us', (med(a) / med(stats.hand!)).toFixed(3));
await pool.end();
