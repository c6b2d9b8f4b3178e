// The README's demo transcript (issue 36 §4), run against a fresh demo as `pnpm start` makes it
// (100,000 articles seeded into a new SQLite file, DEMO_WRITE_TOKEN=s3cret): each `curl` of the
// "The demo API" section is sent, and its answer compared with what the README prints (the port
// aside). The v2 `next` cursor the README prints is followed as printed. Then every link the demo
// sends in its `Link` headers and on its browsable page resolves: its own URLs answer 200, and the
// repository's (the `rel="deprecation"`/`rel="sunset"` page) name a file of this repository and a
// heading in it.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDemoProcess, stopDemoProcess } from './demo-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PRINTED = 'http://localhost:3000';
const REPOSITORY = 'https://github.com/pagewise/pagewise/blob/main/';

/** One `$ curl ...` of a console block: its arguments and the lines it printed. */
interface Command {
  readonly line: string;
  readonly flags: string;
  readonly headers: Record<string, string>;
  readonly method: string;
  readonly body: string | null;
  readonly url: string;
  readonly output: string;
}

/** The console blocks of the README's "The demo API" section, as commands. */
function transcript(): Command[] {
  const section = README.slice(README.indexOf('## The demo API'), README.indexOf('## Development'));
  const commands: Command[] = [];
  for (const [, block] of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    // A command continued with `\` is one line.
    const lines = block!.replace(/\\\n\s*/g, '').split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      if (!line.startsWith('$ curl')) continue;
      const output: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1]!.startsWith('$ ')) output.push(lines[++i]!);
      const headers: Record<string, string> = {};
      for (const [, name, value] of line.matchAll(/-H '([^:]+): ([^']*)'/g))
        headers[name!.toLowerCase()] = value!;
      const url = /"?(http:\/\/localhost:3000\/[^"\s]*)"?/.exec(line)![1]!;
      commands.push({
        line,
        flags: /^\$ curl (-\S+)/.exec(line)?.[1] ?? '',
        headers,
        method: /-X (\w+)/.exec(line)?.[1] ?? 'GET',
        body: /-d '([^']*)'/.exec(line)?.[1] ?? null,
        url,
        output: output.join('\n').trim(),
      });
    }
  }
  return commands;
}

/** GitHub's anchor of a Markdown heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Whether a link into this repository names one of its files, and a heading in it when it has an anchor. */
function inRepository(link: string): boolean {
  const [path, anchor] = link.slice(REPOSITORY.length).split('#') as [string, string | undefined];
  const file = join(ROOT, path);
  if (!existsSync(file)) return false;
  if (anchor === undefined) return true;
  const headings = [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(([, text]) => slug(text!));
  return headings.includes(anchor);
}

describe('the README demo transcript, against a fresh demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-readme-'));
  let child: ChildProcess | undefined;
  let origin = '';
  const send = (command: Pick<Command, 'url' | 'method' | 'headers' | 'body'>) =>
    fetch(command.url.replace(PRINTED, origin), {
      method: command.method,
      headers: command.headers,
      ...(command.body === null ? {} : { body: command.body }),
    });
  const local = (text: string) => text.replaceAll(PRINTED, origin);

  beforeAll(async () => {
    const started = await startDemoProcess({
      SQLITE_FILE: join(dir, 'demo.sqlite'),
      DEMO_WRITE_TOKEN: 's3cret',
    });
    child = started.child;
    expect(started.url, started.output).not.toBeNull();
    origin = new URL(started.url!).origin;
  }, 180_000);
  afterAll(async () => {
    if (child) await stopDemoProcess(child);
    rmSync(dir, { recursive: true, force: true });
  });

  test('every curl of "The demo API" answers what the README prints', async () => {
    const commands = transcript();
    expect(commands.length).toBeGreaterThanOrEqual(10);
    let compared = 0;
    for (const command of commands) {
      // With VERSIONING=accept: another scheme than the one running; the README prints no answer.
      if (command.output === '') continue;
      const answer = await send(command);
      const text = await answer.text();
      if (command.flags === '-si') {
        // `| grep -i ^link`: the Link header.
        expect([command.line, `link: ${answer.headers.get('link')}`]).toEqual([
          command.line,
          local(command.output),
        ]);
      } else if (command.line.includes("-w '%{http_code}")) {
        expect([command.line, String(answer.status)]).toEqual([command.line, command.output]);
      } else if (command.line.includes('# abridged')) {
        const body = JSON.parse(text) as {
          count: number;
          next: string;
          previous: string;
          results: { id: number }[];
        };
        const printed = local(command.output);
        expect(printed).toContain(`"count": ${body.count},`);
        expect(printed).toContain(`"next": "${body.next}"`);
        expect(printed).toContain(`"previous": "${body.previous}"`);
        expect([...printed.matchAll(/"id": (\d+)/g)].map(([, id]) => Number(id))).toEqual(
          body.results.map((r) => r.id),
        );
      } else {
        expect([command.line, JSON.parse(text)]).toEqual([command.line, JSON.parse(local(command.output))]);
      }
      compared += 1;
    }
    expect(compared).toBe(commands.filter((c) => c.output !== '').length);
  });

  test('the v2 next cursor the README prints is followed on a fresh demo', async () => {
    const [feed] = transcript();
    const printed = JSON.parse(feed!.output) as { next: string };
    const answer = await send({ url: printed.next, method: 'GET', headers: {}, body: null });
    expect(answer.status).toBe(200);
    const page = (await answer.json()) as { results: { id: number }[]; previous: string };
    expect(page.results).toHaveLength(1);
    expect(page.previous).not.toBeNull();
  });

  test('every link the demo sends resolves: its own answer 200, the repository’s name a file and a heading', async () => {
    const links = new Set<string>();
    for (const path of [
      '/v1/articles/?page=2',
      '/v1/articles/offset/?limit=2&offset=4',
      '/v1/articles/feed/',
      '/v2/articles/feed/',
      '/v1/',
    ]) {
      const answer = await fetch(`${origin}${path}`);
      for (const [, link] of (answer.headers.get('link') ?? '').matchAll(/<([^>]+)>/g)) links.add(link!);
      const html = await (await fetch(`${origin}${path}`, { headers: { accept: 'text/html' } })).text();
      for (const [, href] of html.matchAll(/href="([^"]+)"/g))
        links.add(new URL(href!.replaceAll('&amp;', '&'), `${origin}${path}`).href);
    }
    expect([...links].some((link) => link.startsWith(REPOSITORY))).toBe(true);
    const broken: string[] = [];
    for (const link of links) {
      if (link.startsWith(origin)) {
        const answer = await fetch(link);
        await answer.arrayBuffer();
        if (answer.status !== 200) broken.push(`${link} ${answer.status}`);
      } else if (!link.startsWith(REPOSITORY) || !inRepository(link)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });
});
