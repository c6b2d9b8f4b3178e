import { statsAt } from './measure.js';
import type { BenchResults } from './run-benchmark.js';

/** One line of the chart. */
interface Series {
  readonly contender: string;
  readonly label: string;
  readonly color: string;
  readonly dash: string;
}

/** The lines drawn: the limit, Pagewise's cursor orderings, and what paging by offset costs. */
const SERIES: readonly Series[] = [
  { contender: 'raw:uniform', label: 'raw keyset SQL (pg, prepared)', color: '#111111', dash: '' },
  { contender: 'pagewise-cursor:uniform', label: 'Pagewise cursor -created,-id', color: '#1f77b4', dash: '' },
  { contender: 'pagewise-cursor:mixed', label: 'Pagewise cursor -created,id', color: '#17becf', dash: '6 3' },
  {
    contender: 'pagewise-cursor:nullable',
    label: 'Pagewise cursor score NULLS LAST',
    color: '#2ca02c',
    dash: '2 3',
  },
  { contender: 'kysely-paginate:uniform', label: 'kysely-paginate 0.2.0', color: '#d62728', dash: '' },
  { contender: 'raw-offset:uniform', label: 'raw OFFSET (pg)', color: '#7f7f7f', dash: '6 3' },
  { contender: 'pagewise-limit-offset:uniform', label: 'Pagewise limit/offset', color: '#ff7f0e', dash: '' },
  { contender: 'pagewise-page-exact:uniform', label: 'page-number, exact count', color: '#9467bd', dash: '' },
  {
    contender: 'pagewise-page-estimated:uniform',
    label: 'page-number, estimated',
    color: '#8c564b',
    dash: '6 3',
  },
  { contender: 'pagewise-page-none:uniform', label: 'page-number, no count', color: '#e377c2', dash: '2 3' },
];

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function depthLabel(depth: number): string {
  if (depth >= 1_000_000 && depth % 1_000_000 === 0) return `${depth / 1_000_000}M`;
  if (depth >= 1000) return `${Number((depth / 1000).toFixed(2))}k`;
  return String(depth);
}

function msLabel(ms: number): string {
  if (ms >= 1000) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * The median latency per page against depth, one line per contender, on a log scale (the
 * contenders differ by three orders of magnitude). Depths are evenly spaced: they are the points
 * measured, not a continuous axis. Plain SVG, no chart library.
 */
export function renderChart(results: BenchResults): string {
  const width = 960;
  const height = 520;
  const left = 70;
  const right = 650;
  const top = 50;
  const bottom = 450;
  const depths = results.depths;
  const median = (contender: string, depth: number) => statsAt(results.latency, contender, depth)?.medianMs;
  const values = SERIES.flatMap((s) => depths.map((d) => median(s.contender, d))).filter(
    (v): v is number => v !== undefined && Number.isFinite(v) && v > 0,
  );
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values, 1)));
  const x = (i: number) =>
    depths.length === 1 ? (left + right) / 2 : left + ((right - left) * i) / (depths.length - 1);
  const y = (ms: number) =>
    bottom - ((Math.log10(ms) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (bottom - top);

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>Median latency per page vs depth, ${results.meta.rows} rows</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="16" font-weight="bold">Median latency per ${results.meta.pageSize}-row page vs depth (${results.meta.rows.toLocaleString('en-US')} rows, log scale)</text>`,
  );
  for (let decade = lo; decade <= hi * 1.0001; decade *= 10) {
    for (const step of [1, 2, 5]) {
      const v = decade * step;
      if (v > hi * 1.0001) break;
      const yy = y(v).toFixed(1);
      const major = step === 1;
      parts.push(
        `<line x1="${left}" x2="${right}" y1="${yy}" y2="${yy}" stroke="${major ? '#cccccc' : '#eeeeee'}"/>`,
      );
      if (major) {
        parts.push(
          `<text x="${left - 8}" y="${yy}" text-anchor="end" dominant-baseline="middle">${msLabel(v)}</text>`,
        );
      }
    }
  }
  depths.forEach((d, i) => {
    const xx = x(i).toFixed(1);
    parts.push(
      `<line x1="${xx}" x2="${xx}" y1="${top}" y2="${bottom}" stroke="#eeeeee"/>`,
      `<text x="${xx}" y="${bottom + 18}" text-anchor="middle">${depthLabel(d)}</text>`,
    );
  });
  parts.push(
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#888888"/>`,
    `<text x="${(left + right) / 2}" y="${bottom + 40}" text-anchor="middle">depth (rows before the page)</text>`,
    `<text transform="translate(18 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">median latency per page</text>`,
  );
  let legendY = top + 6;
  for (const s of SERIES) {
    const points = depths
      .map((d, i) => ({ i, v: median(s.contender, d) }))
      .filter((p): p is { i: number; v: number } => p.v !== undefined && Number.isFinite(p.v) && p.v > 0);
    if (points.length === 0) continue;
    const path = points
      .map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.i).toFixed(1)} ${y(p.v).toFixed(1)}`)
      .join(' ');
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
    parts.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`);
    for (const p of points) {
      parts.push(`<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3" fill="${s.color}"/>`);
    }
    parts.push(
      `<line x1="${right + 20}" x2="${right + 50}" y1="${legendY}" y2="${legendY}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<text x="${right + 58}" y="${legendY}" dominant-baseline="middle">${escapeXml(s.label)}</text>`,
    );
    legendY += 22;
  }
  parts.push(
    `<text x="${right + 20}" y="${legendY + 16}" fill="#555555">${escapeXml(`${results.meta.date.slice(0, 10)}, Node ${results.meta.node}, ${results.meta.postgres}`)}</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
