import { emptyDb, type Db } from './types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The collections a database holds, each as it starts: `[]` for lists, `{}` for keyed ones. */
const template = (): Record<string, unknown> =>
  emptyDb(0, { now: '1970-01-01T00:00:00.000Z', frozen: false }) as unknown as Record<string, unknown>;

function metaProblem(meta: unknown): string | null {
  if (!isRecord(meta)) return '"meta" is missing or not an object';
  if (meta.schema !== 1) return `"meta.schema" is ${JSON.stringify(meta.schema)}, not 1`;
  if (!Number.isSafeInteger(meta.seed)) return '"meta.seed" is not an integer';
  if (!Number.isSafeInteger(meta.next_id) || (meta.next_id as number) < 0)
    return '"meta.next_id" is not a counter';
  const clock = meta.clock;
  if (!isRecord(clock) || typeof clock.now !== 'string' || Number.isNaN(Date.parse(clock.now)))
    return '"meta.clock.now" is not a time';
  if (typeof clock.frozen !== 'boolean') return '"meta.clock.frozen" is not true or false';
  return null;
}

/**
 * What keeps `value` from being a sandbox database (`null`, `[]`, `{}`, a collection of the wrong
 * kind, a record that is not an object, a key no version wrote), or null when it is one. Checked
 * on every database read from a file, so nothing the store cannot use gets past start-up.
 */
export function shapeProblem(value: unknown): string | null {
  if (!isRecord(value))
    return `it holds ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}, not a database`;
  const empty = template();
  for (const key of Object.keys(value))
    if (!Object.hasOwn(empty, key)) return `it has a key no sandbox writes: "${key}"`;
  const meta = metaProblem(value.meta);
  if (meta) return meta;
  for (const [name, start] of Object.entries(empty)) {
    const held = value[name];
    if (name === 'meta' || held === undefined) continue;
    if (Array.isArray(start) !== Array.isArray(held) || typeof held !== 'object' || held === null)
      return `"${name}" is not ${Array.isArray(start) ? 'a list' : 'an object of records'}`;
    // for…in: no array of 10,000s of values made only to be looked at (checked on every start).
    for (const key in held)
      if (!isRecord((held as Record<string, unknown>)[key]))
        return `"${name}" holds a record that is not an object`;
  }
  return null;
}

/** Adds the collections a database written by an older version lacks, empty. */
export function withAllCollections(db: Db): Db {
  const data = db as unknown as Record<string, unknown>;
  for (const [name, start] of Object.entries(template())) if (!Object.hasOwn(data, name)) data[name] = start;
  return db;
}
