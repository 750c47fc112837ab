/** What changed since the last flush: whole top-level values, and single records of keyed collections. */
export interface Changes {
  /** Everything (a new database, or after a failed write). */
  all: boolean;
  /** Top-level keys to write whole (arrays, `meta`, replaced collections). */
  whole: Set<string>;
  /** Keyed collection → ids of the records reached. */
  records: Map<string, Set<string>>;
}

/** Told before a top-level value or one record is reached (DirtyTracker.watch). */
export type Watcher = (name: string, id?: string) => void;

/** Tracking root view → the data behind it. */
const targets = new WeakMap<object, object>();

/**
 * The data behind a tracking view (or the value itself when it is not one), for reads inside a
 * mutation that must not count as reaching records: counting over a whole collection through the
 * view would log every record of it. Never change data reached this way.
 */
export function untracked<T extends object>(db: T): T {
  return (targets.get(db) as T | undefined) ?? db;
}

const isKeyed = (key: string, value: unknown) =>
  key !== 'meta' && typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Tracks what code that may change the data reached since the last `take()`. `view()` is a proxy:
 * a top-level array or `meta` reached is written whole; a keyed collection (`users`, `listings`,
 * …) hands out a second proxy that marks each record reached by id, so a checkout that changes
 * one listing logs that listing, not all of them. Reads count as reaching (a read may hand
 * out a record that is then changed in place); enumerating a collection reaches every record.
 */
export class DirtyTracker<T extends object> {
  private changes: Changes = { all: true, whole: new Set(), records: new Map() };
  private proxy: T;
  private collections = new WeakMap<object, object>();
  private watcher?: Watcher;

  constructor(data: T) {
    this.proxy = this.makeRoot(data);
  }

  view(): T {
    return this.proxy;
  }

  /** A whole new object: everything is dirty. */
  reset(data: T): void {
    this.proxy = this.makeRoot(data);
    this.collections = new WeakMap();
    this.changes.all = true;
  }

  /** Everything is dirty (after a failed write, to be safe). */
  invalidate(): void {
    this.changes.all = true;
  }

  /**
   * Also tells `watcher` about every top-level value (`name`) or record (`name`, `id`) reached,
   * before it is handed out or changed (a streamed snapshot keeps what it has not written yet);
   * `undefined` stops telling.
   */
  watch(watcher: Watcher | undefined): void {
    this.watcher = watcher;
  }

  /** What was reached since the last call; starts afresh. */
  take(): Changes {
    const taken = this.changes;
    this.changes = { all: false, whole: new Set(), records: new Map() };
    return taken;
  }

  private makeRoot(data: T): T {
    const whole = (key: string | symbol) => {
      if (typeof key !== 'string') return;
      this.watcher?.(key);
      this.changes.whole.add(key);
    };
    const root = new Proxy(data, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof key !== 'string') return value;
        if (!isKeyed(key, value)) {
          whole(key);
          return value;
        }
        return this.collectionProxy(key, value as object);
      },
      set: (target, key, value, receiver) => (whole(key), Reflect.set(target, key, value, receiver)),
      defineProperty: (target, key, d) => (whole(key), Reflect.defineProperty(target, key, d)),
      getOwnPropertyDescriptor: (target, key) => (whole(key), Reflect.getOwnPropertyDescriptor(target, key)),
      deleteProperty: (target, key) => {
        if (typeof key === 'string') this.watcher?.(key);
        this.changes.all = true;
        return Reflect.deleteProperty(target, key);
      },
    });
    targets.set(root, data);
    return root;
  }

  private collectionProxy(name: string, collection: object): object {
    let proxy = this.collections.get(collection);
    if (proxy) return proxy;
    const mark = (id: string | symbol) => {
      if (typeof id !== 'string') return;
      this.watcher?.(name, id);
      let ids = this.changes.records.get(name);
      if (!ids) this.changes.records.set(name, (ids = new Set()));
      ids.add(id);
    };
    proxy = new Proxy(collection, {
      get: (target, id, receiver) => (mark(id), Reflect.get(target, id, receiver)),
      set: (target, id, value, receiver) => (mark(id), Reflect.set(target, id, value, receiver)),
      defineProperty: (target, id, d) => (mark(id), Reflect.defineProperty(target, id, d)),
      getOwnPropertyDescriptor: (target, id) => (mark(id), Reflect.getOwnPropertyDescriptor(target, id)),
      deleteProperty: (target, id) => (mark(id), Reflect.deleteProperty(target, id)),
    });
    this.collections.set(collection, proxy);
    return proxy;
  }
}
