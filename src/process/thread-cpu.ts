import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

let readable = true;

/**
 * Milliseconds of CPU time the calling thread has run, from Linux's `/proc/thread-self/schedstat`
 * (time it waited for a core is not counted, so a loaded machine does not inflate it); where that
 * cannot be read, wall time (`performance.now()`). For differences only.
 */
export function threadCpuMs(): number {
  if (readable) {
    try {
      return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
    } catch {
      readable = false;
    }
  }
  return performance.now();
}
