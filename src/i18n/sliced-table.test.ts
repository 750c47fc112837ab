import { describe, expect, it } from 'vitest';
import { SlicedTable, stepsOf, type Steps } from './sliced-table.js';

function* count(to: number, log: number[]): Steps<number> {
  for (let i = 0; i < to; i += 1) {
    log.push(i);
    yield;
  }
  return to;
}

describe('SlicedTable', () => {
  it('builds at once on get, and only once', () => {
    const log: number[] = [];
    const table = new SlicedTable(() => count(3, log));
    expect(table.built()).toBe(false);
    expect(table.get()).toBe(3);
    expect(table.get()).toBe(3);
    expect(log).toEqual([0, 1, 2]);
    expect(table.ready()).toBeNull();
  });

  it('builds in slices between other events when waited for, and get finishes what is left', async () => {
    const log: number[] = [];
    const table = new SlicedTable(() => count(5, log));
    const waiting = table.ready(true);
    expect(waiting).not.toBeNull();
    expect(log).toEqual([]);
    table.advance();
    expect(table.get()).toBe(5);
    await waiting;
    expect(log).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs the steps of a table it is made from as its own', async () => {
    const log: number[] = [];
    const base = new SlicedTable(() => count(2, log));
    const made = new SlicedTable(function* () {
      return (yield* stepsOf(base)) * 10;
    });
    await made.ready();
    expect(made.get()).toBe(20);
    expect(base.built()).toBe(true);
  });

  it("gives a step's error to whoever waits, and starts again on the next use", async () => {
    let tries = 0;
    const table = new SlicedTable(function* (): Steps<number> {
      tries += 1;
      yield;
      if (tries === 1) throw new Error('fixture missing');
      return 7;
    });
    await expect(table.ready()).rejects.toThrow('fixture missing');
    expect(table.get()).toBe(7);
    expect(tries).toBe(2);
  });
});
