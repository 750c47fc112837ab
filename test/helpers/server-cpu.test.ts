import { describe, expect, it } from 'vitest';
import { mainThreadCpuMs, schedstatOf, watchLongestTask, withCpu } from './server-cpu.js';

// The CPU-budget tests (fuzz, worst cases, hardening) are only as good as their measure: where the
// CPU time cannot be read, the helper throws, so a budget test fails saying why instead of
// passing without having measured anything.

/** A pid no process can have: Linux's pids stay under PID_MAX_LIMIT, 2^22. */
const NO_SUCH_PID = 2 ** 22;

describe('the CPU-time helper (test/helpers/server-cpu.ts)', () => {
  it('reads this thread and this process, and the figure grows with work', () => {
    const before = mainThreadCpuMs();
    let x = 0;
    for (let i = 0; i < 2e6; i += 1) x += Math.sqrt(i);
    expect(x).toBeGreaterThan(0);
    expect(mainThreadCpuMs()).toBeGreaterThan(before);
    expect(mainThreadCpuMs(process.pid)).toBeGreaterThan(0);
  });

  it('throws, naming the file, where the CPU time cannot be read', async () => {
    const file = schedstatOf(NO_SUCH_PID);
    expect(file).toBe(`/proc/${NO_SUCH_PID}/task/${NO_SUCH_PID}/schedstat`);
    expect(() => mainThreadCpuMs(NO_SUCH_PID)).toThrow(`cannot measure CPU time: ${file} is unreadable`);
    let ran = false;
    await expect(withCpu(async () => (ran = true), NO_SUCH_PID)).rejects.toThrow(/cannot measure CPU time/);
    expect(ran, 'no work is done that could not be measured').toBe(false);
  });

  it('fails a longest-task watch that cannot read the CPU time, at its start or at a tick', async () => {
    const unreadable = () => mainThreadCpuMs(NO_SUCH_PID);
    expect(() => watchLongestTask(unreadable)).toThrow(/cannot measure CPU time/);
    let reads = 0;
    const watch = watchLongestTask(() => {
      reads += 1;
      return reads < 3 ? reads : unreadable();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(() => watch.stop()).toThrow(/cannot measure CPU time/);
  });

  it('gives the longest stretch between ticks where the CPU time can be read', async () => {
    const watch = watchLongestTask();
    // One task of at least 30 ms of CPU time (counted in CPU time, however loaded the machine).
    const until = mainThreadCpuMs() + 30;
    while (mainThreadCpuMs() < until);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const longest = watch.stop();
    expect(longest).toBeGreaterThanOrEqual(30);
    expect(longest).toBeLessThan(10_000);
  });
});
