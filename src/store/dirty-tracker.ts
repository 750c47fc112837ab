/**
 * Tracks which top-level collections of an object were reached since the last `take()`: code that
 * may change the data gets `view()`, a proxy that marks every top-level property read or written
 * through it (reads count: a read may hand out a collection that is then changed in place).
 */
export class DirtyTracker<T extends object> {
  private dirty = new Set<string>();
  private all = true;
  private proxy: T;

  constructor(data: T) {
    this.proxy = this.makeProxy(data);
  }

  view(): T {
    return this.proxy;
  }

  /** A whole new object: everything is dirty. */
  reset(data: T): void {
    this.proxy = this.makeProxy(data);
    this.all = true;
  }

  /** Everything is dirty (after a failed write, to be safe). */
  invalidate(): void {
    this.all = true;
  }

  /** The keys reached since the last call (or `all`), and starts afresh. */
  take(): string[] | 'all' {
    const result = this.all ? 'all' : [...this.dirty];
    this.dirty.clear();
    this.all = false;
    return result;
  }

  private makeProxy(data: T): T {
    const mark = (key: string | symbol) => {
      if (typeof key === 'string') this.dirty.add(key);
    };
    return new Proxy(data, {
      get(target, key, receiver) {
        mark(key);
        return Reflect.get(target, key, receiver);
      },
      set(target, key, value, receiver) {
        mark(key);
        return Reflect.set(target, key, value, receiver);
      },
      defineProperty(target, key, descriptor) {
        mark(key);
        return Reflect.defineProperty(target, key, descriptor);
      },
      deleteProperty: (target, key) => {
        // A removed collection cannot be replayed by overwriting keys: write a snapshot.
        this.all = true;
        return Reflect.deleteProperty(target, key);
      },
    });
  }
}
