/** Seeding shows a bar only above this many listings; below it the start is quick anyway. */
export const PROGRESS_THRESHOLD = 5000;

const WIDTH = 30;

/**
 * A progress bar for a synchronous job, drawn on `stream`: redrawn in place on a terminal, one
 * line per quarter otherwise (CI logs). Writes are synchronous on Linux TTYs, files and pipes,
 * so the bar moves even though the event loop is busy seeding.
 * @example const bar = progressBar(process.stderr, 'Seeding listings'); bar(500, 10000);
 */
export function progressBar(
  stream: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean },
  label: string,
): (done: number, total: number) => void {
  let lastShown = -1;
  return (done, total) => {
    if (total <= 0) return;
    const ratio = Math.min(1, Math.max(0, done / total));
    const percent = Math.min(100, Math.floor((Math.max(0, done) * 100) / total));
    const step = stream.isTTY ? percent : Math.floor(percent / 25) * 25;
    if (step === lastShown) return;
    lastShown = step;
    if (stream.isTTY) {
      const filled = Math.round(ratio * WIDTH);
      const bar = '#'.repeat(filled) + '.'.repeat(WIDTH - filled);
      stream.write(
        `\r${label} [${bar}] ${String(percent).padStart(3)}% ${done}/${total}${done >= total ? '\n' : ''}`,
      );
    } else {
      stream.write(`${label}: ${step}% (${done}/${total})\n`);
    }
  };
}
