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

/** Where `mainThreadCpuMs` reads a main thread's CPU time: this thread's, or `pid`'s main thread's. */
export const schedstatOf = (pid?: number) =>
  pid === undefined ? '/proc/thread-self/schedstat' : `/proc/${pid}/task/${pid}/schedstat`;

/**
 * CPU time (ms) a main thread has run: the first field of Linux's schedstat, in nanoseconds.
 * CPU time rather than wall time, so a machine loaded by other processes does not make the
 * sandbox look slow: time the thread waited for a core is not counted, only time it ran. The
 * main thread is the one that runs the event loop; hashing in libuv's pool and the garbage
 * collector's helper threads do not hold requests up and are not counted.
 * Without `pid`, the calling thread (an in-process sandbox); with it, that process's main thread
 * (a sandbox started as a child process). Throws where it cannot be read (no /proc: not Linux; a
 * process that is gone): a budget test that cannot measure fails rather than passes unchecked.
 */
export function mainThreadCpuMs(pid?: number): number {
  const file = schedstatOf(pid);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot measure CPU time: ${file} is unreadable (${(err as Error).message}); ` +
        'the CPU-budget tests need Linux /proc and the measured process alive',
      { cause: err },
    );
  }
  const ns = Number(text.split(' ')[0]);
  if (!Number.isFinite(ns))
    throw new Error(`cannot measure CPU time: ${file} does not start with nanoseconds: ${text.slice(0, 80)}`);
  return ns / 1e6;
}

/**
 * Runs `work` and returns its result with the CPU time the main thread (of `pid`, or this one)
 * spent meanwhile. Throws (mainThreadCpuMs) where that cannot be read, before `work` runs or after.
 */
export async function withCpu<T>(
  work: () => Promise<T>,
  pid?: number,
): Promise<{ result: T; cpuMs: number }> {
  const before = mainThreadCpuMs(pid);
  const result = await work();
  return { result, cpuMs: mainThreadCpuMs(pid) - before };
}

/**
 * Watches this process's event loop for the longest stretch of work it did without coming back to
 * its timers, in CPU time of the main thread: a timer ticks every millisecond and reads the CPU
 * time; the most spent between two ticks is the longest one task (or run of tasks) held every
 * other request up. In CPU time, a stretch in which the machine gave the process no core does not
 * count (event-loop delay, which is wall time, counts it). Call `stop` for the figure, in ms.
 * Throws where CPU time cannot be read: at once if it cannot be read at the start, from `stop`
 * if a tick could not read it (the watch stops there). `read` is for this helper's own test.
 */
export function watchLongestTask(read: () => number = mainThreadCpuMs): { stop: () => number } {
  let last = read();
  let longest = 0;
  let failure: unknown;
  const tick = () => {
    if (failure !== undefined) return;
    try {
      const now = read();
      longest = Math.max(longest, now - last);
      last = now;
    } catch (err) {
      failure = err;
      clearInterval(timer);
    }
  };
  const timer = setInterval(tick, 1);
  return {
    stop: () => {
      tick();
      clearInterval(timer);
      if (failure !== undefined) throw failure;
      return longest;
    },
  };
}
