import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEMO = fileURLToPath(new URL('..', import.meta.url));
const TSX = join(DEMO, 'node_modules', '.bin', 'tsx');

export interface DemoProcess {
  /** The URL its "listening" line printed, or `null` when it exited first. */
  readonly url: string | null;
  /** Its exit code when it exited before listening. */
  readonly code: number | null;
  readonly output: string;
  readonly child: ChildProcess;
}

/**
 * Starts `src/server.ts` as `pnpm start` does (PORT=0 unless given) and waits for its
 * "listening" line or its exit. The caller stops it (`child.kill('SIGTERM')`).
 */
export function startDemoProcess(env: Record<string, string>): Promise<DemoProcess> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ['--conditions=@pagewise/source', 'src/server.ts'], {
      cwd: DEMO,
      env: { ...process.env, PORT: '0', ...env },
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /(http:\/\/localhost:\d+\/\S*)/.exec(output)?.[1];
      if (url) resolve({ url, code: null, output, child });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => resolve({ url: null, code, output, child }));
  });
}

/** SIGTERM, then waits for the exit (a cluster primary exits once its workers have). */
export function stopDemoProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
