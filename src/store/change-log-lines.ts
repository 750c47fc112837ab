import { crc32, sumText } from './checksum.js';
import type { Changes } from './dirty-tracker.js';
import type { Db } from './types.js';

/**
 * One change log line: top-level values to replace, records of keyed collections to set (`null`:
 * delete), and elements of top-level arrays (with the array's new length).
 */
export type Entry = Record<string, unknown> & {
  $records?: Record<string, Record<string, unknown>>;
  $items?: Record<string, { length: number; items: Record<string, unknown> }>;
};

/**
 * A line as written: the CRC-32 of the JSON text (8 hex digits), a space, the text, a newline.
 * Lines written before sums were the JSON text alone; a change log is all one or all the other.
 */
export function encodeLine(value: unknown): Buffer {
  const text = JSON.stringify(value);
  return Buffer.from(`${sumText(crc32(text))} ${text}\n`);
}

/** True for a line of the summed format. */
export const isSummed = (line: string) => /^[0-9a-f]{8} /.test(line);

/** What a line holds, or undefined when it is damaged (its sum does not match, or it is not JSON). */
export function decodeLine(line: string, summed: boolean): unknown {
  let text = line;
  if (summed) {
    if (!isSummed(line)) return undefined;
    text = line.slice(9);
    if (sumText(crc32(text)) !== line.slice(0, 8)) return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isIndex = (key: string) => /^(0|[1-9]\d*)$/.test(key);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The line for `changes`: what was written, as it is now (records and elements, not whole collections). */
export function entryOf(db: Db, changes: Changes): Entry {
  const data = db as unknown as Record<string, unknown>;
  const entry: Entry = {};
  for (const key of changes.whole) if (Object.hasOwn(data, key)) entry[key] = data[key];
  for (const [name, ids] of changes.records) {
    if (changes.whole.has(name) || !Object.hasOwn(data, name)) continue;
    const collection = data[name];
    if (Array.isArray(collection)) {
      const items: Record<string, unknown> = {};
      for (const id of ids)
        if (isIndex(id) && Number(id) < collection.length)
          items[id] = (collection[Number(id)] as unknown) ?? null;
      (entry.$items ??= {})[name] = { length: collection.length, items };
      continue;
    }
    const records: Record<string, unknown> = {};
    const keyed = collection as Record<string, unknown>;
    for (const id of ids) {
      const value = Object.hasOwn(keyed, id) ? keyed[id] : null;
      Object.defineProperty(records, id, { value, enumerable: true, writable: true, configurable: true });
    }
    (entry.$records ??= {})[name] = records;
  }
  return entry;
}

const define = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** Applies one line to the database being read; returns what is wrong with the line, or null. */
export function applyEntry(db: Db, entry: unknown): string | null {
  if (!isRecord(entry)) return 'it is not an object';
  const data = db as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(entry))
    if (key !== '$records' && key !== '$items') define(data, key, value);
  if (entry.$records !== undefined) {
    if (!isRecord(entry.$records)) return '$records is not an object';
    for (const [name, records] of Object.entries(entry.$records)) {
      const collection = data[name];
      if (!isRecord(collection) || !isRecord(records)) return `$records.${name} does not fit the database`;
      for (const [id, value] of Object.entries(records)) {
        if (value === null) delete collection[id];
        else define(collection, id, value);
      }
    }
  }
  return entry.$items === undefined ? null : applyItems(data, entry.$items);
}

function applyItems(data: Record<string, unknown>, items: unknown): string | null {
  if (!isRecord(items)) return '$items is not an object';
  for (const [name, change] of Object.entries(items)) {
    const list = data[name];
    if (!Array.isArray(list) || !isRecord(change) || !isRecord(change.items))
      return `$items.${name} does not fit the database`;
    const { length } = change;
    if (!Number.isSafeInteger(length) || (length as number) < 0)
      return `$items.${name}.length is not a length`;
    list.length = length as number;
    for (const [index, value] of Object.entries(change.items)) {
      if (!isIndex(index) || Number(index) >= list.length)
        return `$items.${name} sets ${index}, past its length`;
      list[Number(index)] = value;
    }
  }
  return null;
}
