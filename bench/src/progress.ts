/** Reports how far a long step got. */
export type Progress = (done: number) => void;

/**
 * A progress bar on `stream` (stderr): redrawn in place on a terminal, a line every 10% otherwise,
 * so CI logs stay short. A `null` stream reports nothing.
 *
 * @example
 * const report = progressBar(process.stderr, 'Seeding', 1_000_000);
 * report(250_000);
 */
export function progressBar(stream: NodeJS.WritableStream | null, label: string, total: number): Progress {
  if (stream === null) return () => {};
  const width = 30;
  const tty = (stream as { isTTY?: boolean }).isTTY === true;
  let lastDecile = -1;
  return (done) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    if (tty) {
      const filled = Math.round(ratio * width);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(ratio * 100)}% ${done}/${total}`,
      );
      if (done >= total) stream.write('\n');
      return;
    }
    const decile = Math.floor(ratio * 10);
    if (decile !== lastDecile) {
      lastDecile = decile;
      stream.write(`${label}: ${Math.floor(ratio * 100)}% (${done}/${total})\n`);
    }
  };
}
