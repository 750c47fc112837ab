import { UndoLog } from './undo-log.js';

/** What changed since the last flush: whole top-level values, and single records of collections. */
export interface Changes {
  /** Everything (a new database, or after a failed write). */
  all: boolean;
  /** Top-level keys to write whole (`meta`, replaced collections). */
  whole: Set<string>;
  /** Collection → the records written: ids of a keyed collection, indices of a top-level array. */
  records: Map<string, Set<string>>;
}

/** Told before a top-level value or one record is first written (DirtyTracker.watch). */
export type Watcher = (name: string, id?: string) => void;

/** Proxy → the data behind it (the root view and every value handed out through it). */
const targets = new WeakMap<object, object>();

/**
 * The data behind a tracking view or a value read through it (or the value itself when it is
 * not one), for reads that need no proxies: a count over a whole collection allocates none.
 * Never change data reached this way: the change would be neither logged nor undone.
 */
export function untracked<T extends object>(value: T): T {
  return (targets.get(value) as T | undefined) ?? value;
}

/** Where a proxy sits: the database itself, a collection (its keys are records), or inside one record. */
const ROOT = Symbol('root');
const COLLECTION = Symbol('collection');
const WHOLE = Symbol('whole');
type Scope = typeof ROOT | typeof COLLECTION | typeof WHOLE | string;

interface Cached {
  name: string;
  scope: Scope;
  proxy: object;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const isIndex = (key: PropertyKey) => typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key);

/** A collection whose records are logged one by one: keyed collections and top-level arrays (not `meta`). */
const isCollection = (name: string, value: unknown) => name !== 'meta' && isObject(value);

/**
 * Sees every write a change makes, at any depth. `view()` is a proxy over the database; every
 * object read through it is handed out as a proxy too (frozen ones, which cannot change, as they
 * are). A write anywhere inside a record of a keyed collection (`users`, `listings`, …) or an
 * element of a top-level array (`ledger`, `mailbox`) marks that record, so a flush logs what
 * changed and nothing else (a funding logs one user and one ledger entry, however long the
 * ledger); a write inside `meta` marks `meta`. Reads mark nothing. Before each write the earlier
 * value goes to the undo log, so a change can be taken back (store.ts).
 */
export class DirtyTracker<T extends object> {
  readonly undo = new UndoLog();
  private changes: Changes = { all: true, whole: new Set(), records: new Map() };
  private root!: T;
  private proxy!: T;
  private cache = new WeakMap<object, Cached>();
  private watcher?: Watcher;

  /** `logChanges` false: writes are only undoable (a memory store has nothing to log). */
  constructor(
    data: T,
    private readonly logChanges = true,
  ) {
    this.reset(data);
  }

  view(): T {
    return this.proxy;
  }

  /** A whole new object: everything is dirty. */
  reset(data: T): void {
    this.root = data;
    this.cache = new WeakMap();
    this.proxy = this.wrap(data, '', ROOT) as T;
    this.changes.all = true;
  }

  /**
   * Called when a change ends: the next one gets fresh proxies, so no proxy (nor its cache entry)
   * outlives the change that read through it; within a change a value is always the same proxy.
   */
  endChange(): void {
    this.cache = new WeakMap();
    this.proxy = this.wrap(this.root, '', ROOT) as T;
  }

  /** Everything is dirty (after a failed write, the next flush writes a whole snapshot). */
  invalidate(): void {
    this.changes.all = true;
  }

  /**
   * Also tells `watcher` about every top-level value (`name`) or record (`name`, `id`) about to
   * be written (a streamed snapshot keeps what it has not written yet); `undefined` stops telling.
   */
  watch(watcher: Watcher | undefined): void {
    this.watcher = watcher;
  }

  /** What was written since the last call; starts afresh. */
  take(): Changes {
    const taken = this.changes;
    this.changes = { all: false, whole: new Set(), records: new Map() };
    return taken;
  }

  private wrap(target: object, name: string, scope: Scope): object {
    if (Object.isFrozen(target)) return target;
    const hit = this.cache.get(target);
    if (hit && hit.name === name && hit.scope === scope) return hit.proxy;
    const proxy = new Proxy(target, this.handler(name, scope));
    targets.set(proxy, target);
    this.cache.set(target, { name, scope, proxy });
    return proxy;
  }

  private handler(name: string, scope: Scope): ProxyHandler<object> {
    const childScope = (key: string, value: object): [string, Scope] => {
      if (scope === ROOT) return [key, isCollection(key, value) ? COLLECTION : WHOLE];
      return [name, scope === COLLECTION ? key : scope];
    };
    const before = (target: object, key: PropertyKey, value?: unknown) => {
      if (typeof key === 'symbol') return;
      const text = String(key);
      this.wrote(scope === ROOT ? text : name, scope, text);
      this.keep(target, text, value);
    };
    return {
      get: (target, key) => {
        const value = Reflect.get(target, key) as unknown;
        if (!isObject(value) || typeof key === 'symbol') return value;
        return this.wrap(value, ...childScope(key, value));
      },
      set: (target, key, value) => {
        before(target, key, value);
        return Reflect.set(target, key, unwrap(value));
      },
      defineProperty: (target, key, descriptor) => {
        before(target, key, descriptor.value);
        const plain = 'value' in descriptor ? { ...descriptor, value: unwrap(descriptor.value) } : descriptor;
        return Reflect.defineProperty(target, key, plain);
      },
      deleteProperty: (target, key) => {
        before(target, key);
        if (scope === ROOT) this.changes.all = true; // a change log entry cannot express a removed top-level key
        return Reflect.deleteProperty(target, key);
      },
    };
  }

  /** Marks what a write to `key` reaches (in a proxy of `scope` under top-level `name`). */
  private wrote(name: string, scope: Scope, key: string): void {
    const id = scope === COLLECTION ? key : typeof scope === 'string' ? scope : undefined;
    const array = Array.isArray(Reflect.get(this.root, name));
    // A snapshot being written keeps a top-level array whole, so it is told the array's name.
    this.watcher?.(name, array ? undefined : id);
    if (!this.logChanges) return;
    if (id === undefined) {
      this.changes.whole.add(name);
      return;
    }
    let ids = this.changes.records.get(name);
    if (!ids) this.changes.records.set(name, (ids = new Set()));
    ids.add(id);
  }

  /** Puts what a write to `target[key]` replaces into the undo log (an array's cut-off elements too). */
  private keep(target: object, key: string, value: unknown): void {
    if (Array.isArray(target)) {
      if (key === 'length' && typeof value === 'number')
        for (let i = target.length - 1; i >= value; i--) this.undo.keep(target, String(i));
      else if (isIndex(key) && Number(key) >= target.length) this.undo.keep(target, 'length');
    }
    this.undo.keep(target, key);
  }
}

/**
 * The plain data of a value about to be stored: a proxy becomes its target, and proxies inside a
 * new value (e.g. records kept from a tracked array by `filter`) are replaced by theirs, so the
 * database never holds a proxy.
 */
function unwrap(value: unknown): unknown {
  if (!isObject(value)) return value;
  const target = targets.get(value);
  if (target) return target;
  if (Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (!isObject(inner)) continue;
    const plain = unwrap(inner);
    if (plain !== inner)
      Reflect.defineProperty(value, key, {
        value: plain,
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return value;
}
