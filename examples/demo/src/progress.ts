/** A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise. */
export function progressBar(label: string, total: number): (done: number) => void {
  const width = 30;
  let lastDecile = -1;
  return (done) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    if (process.stderr.isTTY) {
      const filled = Math.round(ratio * width);
      process.stderr.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(ratio * 100)}% ${done}/${total}`,
      );
      if (done >= total) process.stderr.write('\n');
    } else {
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${label}: ${Math.floor(ratio * 100)}% (${done}/${total})\n`);
      }
    }
  };
}
