import type { FileHandle } from 'node:fs/promises';
import { crc32, sumText } from './checksum.js';
import type { Db } from './types.js';

/** Bytes handed to one `write` while streaming a snapshot (and read at once when loading one). */
export const CHUNK_BYTES = 1 << 20;

const isKeyed = (key: string, value: unknown) =>
  key !== 'meta' && typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writes a whole database as JSON, one record per line, without ever holding the whole text
 * (read back by snapshot-reader.ts): `JSON.stringify(db)` would hold the whole file twice, as one
 * string and as its buffer, against the memory budget (docs/hardening.md, Memory, has the
 * figures). The file is still one JSON document (`JSON.parse` reads it; newlines are whitespace):
 *
 *     {
 *     "meta":{…}
 *     ,"users":{
 *     "<id>":{…}
 *     ,"<id>":{…}
 *     }
 *     ,"ledger":[…]
 *     ,"$checksum":"crc32:<8 hex digits>"
 *     }
 *
 * The last member is the CRC-32 of every byte before its line, so a damaged file (a flipped
 * byte, a cut) is told apart from a whole one (snapshot-reader.ts); readers drop it.
 *
 * The write yields between chunks, so requests go on changing the database meanwhile; the
 * snapshot must still be the database as it was when the write began. Everything is captured
 * by reference at the start (top-level values, the ids of every keyed collection), and the
 * store's dirty tracker calls `reach` before any value is handed out to a change: a record or
 * top-level value not yet written is then serialized as it still is, and that text is written
 * in its place. Records added later are not in the id lists; records deleted later were
 * reached (and kept) first.
 */
export class SnapshotWriter {
  private readonly names: string[];
  private readonly values = new Map<string, unknown>();
  private readonly ids = new Map<string, string[]>();
  private readonly kept = new Map<string, string | undefined>();
  private readonly keptRecords = new Map<string, Map<string, string | undefined>>();
  private readonly finished = new Set<string>();

  constructor(db: Db) {
    const data = db as unknown as Record<string, unknown>;
    this.names = Object.keys(data);
    for (const name of this.names) {
      const value = data[name];
      this.values.set(name, value);
      if (isKeyed(name, value)) this.ids.set(name, Object.keys(value as object));
    }
  }

  /** Called before `name` (or its record `id`) is reached by a change. */
  reach(name: string, id?: string): void {
    if (this.finished.has(name) || !this.values.has(name)) return;
    const ids = this.ids.get(name);
    if (!ids) {
      if (!this.kept.has(name)) this.kept.set(name, JSON.stringify(this.values.get(name)));
      return;
    }
    if (id === undefined) return; // a keyed collection replaced whole: the old object is kept by reference
    let records = this.keptRecords.get(name);
    if (!records) this.keptRecords.set(name, (records = new Map()));
    if (records.has(id)) return;
    const collection = this.values.get(name) as Record<string, unknown>;
    records.set(id, Object.hasOwn(collection, id) ? JSON.stringify(collection[id]) : undefined);
  }

  /** Streams the database into `handle`; returns the bytes written. */
  async write(handle: FileHandle): Promise<number> {
    const out = new ChunkedWriter(handle);
    await out.add('{\n');
    let first = true;
    for (const name of this.names) {
      const prefix = `${first ? '' : ','}${JSON.stringify(name)}:`;
      const ids = this.ids.get(name);
      if (ids) {
        // An empty collection is written as `{}` now, whatever was added to it since the start.
        first = false;
        if (ids.length === 0) await out.add(`${prefix}{}\n`);
        else await this.writeCollection(out, prefix, name, ids);
      } else {
        const text = this.kept.has(name) ? this.kept.get(name) : JSON.stringify(this.values.get(name));
        if (text !== undefined) {
          first = false;
          await out.add(`${prefix}${text}\n`);
        }
      }
      this.finished.add(name);
    }
    const sum = await out.sum();
    await out.add(`${first ? '' : ','}"${CHECKSUM_KEY}":"crc32:${sumText(sum)}"\n}\n`);
    return out.end();
  }

  private async writeCollection(out: ChunkedWriter, prefix: string, name: string, ids: string[]) {
    const collection = this.values.get(name) as Record<string, unknown>;
    await out.add(`${prefix}{\n`);
    let first = true;
    for (const id of ids) {
      const records = this.keptRecords.get(name);
      const text = records?.has(id) ? records.get(id) : JSON.stringify(collection[id]);
      if (text === undefined) continue;
      await out.add(`${first ? '' : ','}${JSON.stringify(id)}:${text}\n`);
      first = false;
    }
    await out.add('}\n');
  }
}

const EVERY_NOT_ASCII = /[\u0080-\uffff]/g;
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON text with every character outside ASCII written as its `\uXXXX` escape (one per UTF-16
 * unit, so a pair stays a pair): the same values for any JSON reader (such characters only occur
 * inside strings), and a file snapshot-reader.ts reads as Latin-1, a plain copy, instead of
 * decoding UTF-8.
 * @example asciiJson('{"city":"Zürich"}') // '{"city":"Z\\u00fcrich"}'
 */
export function asciiJson(text: string): string {
  // A text as long as its UTF-8 bytes is all ASCII (a native count, faster than a regex test).
  return Buffer.byteLength(text, 'utf8') === text.length ? text : text.replace(EVERY_NOT_ASCII, escaped);
}

/** The snapshot's last member: the CRC-32 of the bytes before its line. */
export const CHECKSUM_KEY = '$checksum';

/** Collects pieces of text and writes them in chunks of about CHUNK_BYTES, summing what it wrote. */
class ChunkedWriter {
  private parts: string[] = [];
  private length = 0;
  private bytes = 0;
  private crc = 0;

  constructor(private readonly handle: FileHandle) {}

  add(text: string): Promise<void> | void {
    // Escaped piece by piece (a record's text), so only the few records with such characters are
    // rewritten, not the whole chunk they fall in.
    text = asciiJson(text);
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= CHUNK_BYTES) return this.flush();
  }

  async end(): Promise<number> {
    await this.flush();
    return this.bytes;
  }

  /** The CRC-32 of everything added so far (written first). */
  async sum(): Promise<number> {
    await this.flush();
    return this.crc;
  }

  private async flush(): Promise<void> {
    const buffer = Buffer.from(this.parts.join(''), 'latin1');
    this.parts = [];
    this.length = 0;
    this.crc = crc32(buffer, this.crc);
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesWritten } = await this.handle.write(buffer, offset);
      offset += bytesWritten;
    }
    this.bytes += buffer.length;
  }
}
