import { readFileSync } from 'node:fs';

/**
 * What one request may cost the server: its main thread's CPU time, in ms. Every sandbox shares
 * one event loop, so this is how long one request can hold all the others up (issue 14).
 */
export const REQUEST_CPU_BUDGET_MS = 100;

/**
 * The longest the main thread may run without a turn of the event loop while requests run
 * (`watchLongestTask`, in CPU time): what every other request of every sandbox would wait
 * (issue 14). In CPU time, like REQUEST_CPU_BUDGET_MS: a wall-clock figure (event-loop delay) also
 * counts the time a loaded machine gave the process no core, which no change to the sandbox moves.
 */
export const LONGEST_TASK_BUDGET_MS = 200;

/**
 * CPU time (ms) a main thread has run: the first field of Linux's schedstat, in nanoseconds.
 * CPU time rather than wall time, so a machine loaded by other processes does not make the
 * sandbox look slow: time the thread waited for a core is not counted, only time it ran. The
 * main thread is the one that runs the event loop; hashing in libuv's pool and the garbage
 * collector's helper threads do not hold requests up and are not counted.
 * Without `pid`, the calling thread (an in-process sandbox); with it, that process's main thread
 * (a sandbox started as a child process). Undefined where there is no /proc (not Linux).
 */
export function mainThreadCpuMs(pid?: number): number | undefined {
  const file = pid === undefined ? '/proc/thread-self/schedstat' : `/proc/${pid}/task/${pid}/schedstat`;
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` and returns its result with the CPU time the main thread (of `pid`, or this one)
 * spent meanwhile; `cpuMs` is undefined where it cannot be read.
 */
export async function withCpu<T>(
  work: () => Promise<T>,
  pid?: number,
): Promise<{ result: T; cpuMs?: number }> {
  const before = mainThreadCpuMs(pid);
  const result = await work();
  const after = mainThreadCpuMs(pid);
  return { result, cpuMs: before === undefined || after === undefined ? undefined : after - before };
}

/**
 * Watches this process's event loop for the longest stretch of work it did without coming back to
 * its timers, in CPU time of the main thread: a timer ticks every millisecond and reads the CPU
 * time; the most spent between two ticks is the longest one task (or run of tasks) held every
 * other request up. In CPU time, a stretch in which the machine gave the process no core does not
 * count (event-loop delay, which is wall time, counts it). Call `stop` for the figure, in ms;
 * undefined where CPU time cannot be read.
 */
export function watchLongestTask(): { stop: () => number | undefined } {
  let last = mainThreadCpuMs();
  let longest = 0;
  const tick = () => {
    const now = mainThreadCpuMs();
    if (now !== undefined && last !== undefined) longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 1);
  return {
    stop: () => {
      tick();
      clearInterval(timer);
      return last === undefined ? undefined : longest;
    },
  };
}
