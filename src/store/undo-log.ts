/** The earlier state of one property, or a step the store takes back itself (a swapped database). */
type Step = { target: object; key: PropertyKey; had: boolean; value: unknown } | (() => void);

/**
 * What every write changed, oldest first, so that changes can be taken back newest first: one
 * mutation when it throws half-way, or everything since the last durable flush when a flush
 * fails. Positions are absolute, so they stay valid after older steps are forgotten.
 */
export class UndoLog {
  private steps: Step[] = [];
  private base = 0;

  get position(): number {
    return this.base + this.steps.length;
  }

  /** Keeps `target[key]` as it is now, just before a write changes it. */
  keep(target: object, key: PropertyKey): void {
    const now = Reflect.getOwnPropertyDescriptor(target, key);
    this.steps.push({ target, key, had: now !== undefined, value: now?.value });
  }

  /** Keeps a step that takes back something the store did itself (a swapped database). */
  keepStep(undo: () => void): void {
    this.steps.push(undo);
  }

  /** Takes back every write after `position`, newest first. */
  rollback(position: number): void {
    const stop = Math.max(position, this.base);
    while (this.position > stop) restore(this.steps.pop() as Step);
  }

  /** Forgets the steps before `position`: those changes cannot be taken back any more. */
  forget(position: number): void {
    const count = Math.min(position, this.position) - this.base;
    if (count <= 0) return;
    this.steps.splice(0, count);
    this.base += count;
  }
}

function restore(step: Step): void {
  if (typeof step === 'function') return step();
  const { target, key, had, value } = step;
  if (key === 'length' && Array.isArray(target)) target.length = value as number;
  else if (had)
    Reflect.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else Reflect.deleteProperty(target, key);
}
