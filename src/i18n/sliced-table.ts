import { performance } from 'node:perf_hooks';

/** How long one slice of table building may hold the event loop (ms). */
export const SLICE_MS = 4;

/** A table's building as small steps: each `next()` does a few ms of work at most. */
export type Steps<T> = Generator<void, T, void>;

/**
 * A process-wide table built once from static data (the catalogue's texts, a language's word
 * list): at once where a caller needs it now (`get`), or a slice at a time between other events
 * (`ready`), so building it never holds every sandbox up in one request. Either way the same
 * steps run, once.
 * @example const words = new SlicedTable(() => wordSteps('de')); await words.ready(); words.get();
 */
export class SlicedTable<T> {
  private value: T | undefined;
  private steps: Steps<T> | undefined;
  private waiting: Promise<void> | undefined;
  private settle: ((error?: unknown) => void) | undefined;

  constructor(private readonly make: () => Steps<T>) {}

  built(): boolean {
    return this.value !== undefined;
  }

  /** The table, building what is left of it now. */
  get(): T {
    while (!this.advance());
    return this.value as T;
  }

  /** One step of the building; true once the table is built. */
  advance(): boolean {
    if (this.value !== undefined) return true;
    this.steps ??= this.make();
    let step: IteratorResult<void, T>;
    try {
      step = this.steps.next();
    } catch (error) {
      // A generator that threw is over: the next use starts again (and meets the error again).
      this.steps = undefined;
      throw error;
    }
    if (!step.done) return false;
    this.value = step.value;
    this.steps = undefined;
    this.settle?.();
    return true;
  }

  /**
   * Resolves once the table is built, building it in slices of {@link SLICE_MS} meanwhile; null
   * when it is built already (no await needed). `urgent`: before tables only warmed in advance.
   */
  ready(urgent = false): Promise<void> | null {
    if (this.value !== undefined) return null;
    this.waiting ??= new Promise<void>((resolve, reject) => {
      this.settle = (error?: unknown) => (error === undefined ? resolve() : reject(error as Error));
    });
    enqueue(this as SlicedTable<unknown>, urgent);
    return this.waiting;
  }

  /** A step threw: whoever waits gets the error, and the next use starts the building again. */
  fail(error: unknown): void {
    this.steps = undefined;
    this.waiting = undefined;
    this.settle?.(error);
  }
}

/** The tables being built in slices, the next first. */
const queue: SlicedTable<unknown>[] = [];
let scheduled = false;

function enqueue(table: SlicedTable<unknown>, urgent: boolean): void {
  const at = queue.indexOf(table);
  if (at >= 0 && !urgent) return;
  if (at >= 0) queue.splice(at, 1);
  if (urgent) queue.unshift(table);
  else queue.push(table);
  if (!scheduled) {
    scheduled = true;
    setImmediate(slice);
  }
}

/** Builds for at most SLICE_MS, then lets every other event run before the next slice. */
function slice(): void {
  const until = performance.now() + SLICE_MS;
  while (queue.length > 0 && performance.now() < until) {
    const table = queue[0];
    try {
      if (table.advance()) queue.shift();
    } catch (error) {
      queue.shift();
      table.fail(error);
    }
  }
  scheduled = queue.length > 0;
  if (scheduled) setImmediate(slice);
}

/**
 * Inside a table's steps: the steps of another table it is made from, run as part of its own.
 * @example const fixture = yield* stepsOf(catalogTable);
 */
export function* stepsOf<T>(table: SlicedTable<T>): Steps<T> {
  while (!table.advance()) yield;
  return table.get();
}
