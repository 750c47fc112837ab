import { isAscii } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32, sumText } from './checksum.js';
import { ListingInterner } from './intern.js';
import { CHECKSUM_KEY, CHUNK_BYTES } from './snapshot.js';
import type { Db } from './types.js';

/** The snapshot could not be parsed; `line` is 1-based (0: the whole file). */
export class SnapshotParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The text of `bytes`: read as Latin-1 when they are all ASCII (every file SnapshotWriter writes
 * is: it escapes the rest, snapshot.ts `asciiJson`), which is a plain copy, else decoded as UTF-8
 * (a file from before, or written by hand). The copy is several times cheaper than a UTF-8
 * decode, which V8 does the slow way for the whole file once it holds one non-ASCII byte
 * (docs/hardening.md, Start-up, has the figures).
 */
function textOf(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Smaller files are parsed whole, which is faster; larger ones a line at a time. */
const WHOLE_PARSE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a snapshot. A large one written by SnapshotWriter is read line by line (one record
 * parsed at a time, never the whole text at once), sharing the listings' repeated values
 * (intern.ts); a small one, or one in the layout from before (compact JSON on one line), is
 * parsed whole. A snapshot that ends with its checksum (snapshot.ts) must match it; one written
 * before checksums has none, and only its shape is checked (db-shape.ts).
 */
export async function readSnapshot(path: string, wholeParseMaxBytes = WHOLE_PARSE_MAX_BYTES): Promise<Db> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (size <= wholeParseMaxBytes || head.toString('latin1') !== '{\n') {
      const bytes = await handle.readFile();
      checkWholeSum(bytes);
      const db = withoutChecksum(parse(textOf(bytes), 0)) as Db;
      return size > wholeParseMaxBytes ? internListings(db) : db;
    }
    return await parseLines(new LineReader(handle));
  } finally {
    await handle.close();
  }
}

const SUM_LINE = /^,?"\$checksum":"crc32:([0-9a-f]{8})"$/;
const KEY_LINE_START = Buffer.from(`\n,"${CHECKSUM_KEY}":`);

/** A whole file: its checksum line (the last but one) must match every byte before it. */
function checkWholeSum(bytes: Buffer): void {
  const end = bytes.length - 3; // `}\n` follows the sum line's own newline
  const start =
    end > 0 && bytes.toString('latin1', end) === '\n}\n' ? bytes.lastIndexOf(0x0a, end - 1) + 1 : -1;
  const match = start > 0 ? SUM_LINE.exec(bytes.toString('latin1', start, end)) : null;
  if (!match) {
    // No sum line where it belongs: a file written before checksums, unless its key is still there.
    if (bytes.includes(KEY_LINE_START)) throw new SnapshotParseError(0, 'its checksum line is damaged');
    return;
  }
  const actual = sumText(crc32(bytes.subarray(0, start)));
  if (actual !== match[1])
    throw new SnapshotParseError(
      0,
      `its checksum does not match: the file says ${match[1]}, its bytes give ${actual}`,
    );
}

function withoutChecksum(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, CHECKSUM_KEY))
    delete (value as Record<string, unknown>)[CHECKSUM_KEY];
  return value;
}

function internListings(db: Db): Db {
  const interner = new ListingInterner(false);
  if (typeof db?.listings === 'object' && db.listings !== null)
    for (const rec of Object.values(db.listings))
      if (typeof rec === 'object' && rec !== null) interner.listing(rec);
  return db;
}

async function parseLines(lines: LineReader): Promise<Db> {
  const db: Record<string, unknown> = {};
  const interner = new ListingInterner(false);
  let collection: Record<string, unknown> | undefined;
  let listings = false;
  let opened = false;
  let closed = false;
  let summed = false;
  for (let batch = await lines.next(); batch !== undefined; batch = await lines.next()) {
    for (let j = 0; j < batch.length; j++) {
      const line = batch[j];
      const at = ++lines.count;
      if (closed) throw new SnapshotParseError(at, 'text after the end of the database');
      if (summed && line !== '}') throw new SnapshotParseError(at, 'text after the checksum');
      if (!collection && SUM_LINE.test(line)) {
        checkLineSum(lines, batch, j, line, at);
        summed = true;
        continue;
      }
      const body = line.charCodeAt(0) === COMMA ? line.slice(1) : line;
      if (!opened) {
        if (body !== '{') throw new SnapshotParseError(at, 'expected {');
        opened = true;
      } else if (collection) {
        if (body === '}') collection = undefined;
        else {
          const [id, value] = member(body, at);
          if (listings && typeof value === 'object' && value !== null) interner.listing(value as never);
          define(collection, id, value);
        }
      } else if (body === '}') closed = true;
      else if (body.endsWith(':{')) {
        const name = parse(body.slice(0, -2), at) as string;
        collection = {};
        listings = name === 'listings';
        define(db, name, collection);
      } else define(db, ...member(body, at));
    }
  }
  if (!closed) throw new SnapshotParseError(lines.count, 'the file ends before the database does');
  if (!summed && Object.hasOwn(db, CHECKSUM_KEY))
    throw new SnapshotParseError(0, 'its checksum line is damaged');
  return db as unknown as Db;
}

/** The sum line `line` (batch[j]) must match every byte before it. */
function checkLineSum(lines: LineReader, batch: string[], j: number, line: string, at: number): void {
  const before =
    j === 0 ? lines.batchStartSum : crc32(`${batch.slice(0, j).join('\n')}\n`, lines.batchStartSum);
  const expected = (SUM_LINE.exec(line) as RegExpExecArray)[1];
  if (sumText(before) !== expected)
    throw new SnapshotParseError(
      at,
      `its checksum does not match: the file says ${expected}, its bytes give ${sumText(before)}`,
    );
}

const COMMA = 44;
const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

/** One `"key":value` line (the value is parsed in place, not copied into a wrapper text). */
function member(body: string, line: number): [string, unknown] {
  let end = -1;
  if (body.charCodeAt(0) === QUOTE)
    for (let i = 1; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        end = i;
        break;
      }
    }
  if (end < 0 || body.charCodeAt(end + 1) !== COLON)
    throw new SnapshotParseError(line, 'expected "key":value');
  return [parse(body.slice(0, end + 1), line) as string, parse(body.slice(end + 2), line)];
}

function parse(text: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new SnapshotParseError(line, (err as Error).message);
  }
}

/** Sets an own property, even for an id like `__proto__` (plain assignment is faster for the rest). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') target[key] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A file's lines, a chunk's worth at a time (a newline byte never occurs inside a UTF-8 character). */
class LineReader {
  count = 0;
  /** CRC-32 of every byte before the batch `next` returned last. */
  batchStartSum = 0;
  private sum = 0;
  private rest = Buffer.alloc(0);
  private position = 0;
  private readonly buffer = Buffer.alloc(CHUNK_BYTES);

  constructor(private readonly handle: FileHandle) {}

  /** The next complete lines, or undefined at the end of the file. */
  async next(): Promise<string[] | undefined> {
    for (;;) {
      const { bytesRead } = await this.handle.read(this.buffer, 0, this.buffer.length, this.position);
      this.position += bytesRead;
      if (bytesRead === 0) {
        if (this.rest.length === 0) return undefined;
        const last = textOf(this.rest);
        this.rest = Buffer.alloc(0);
        return [last];
      }
      const chunk =
        this.rest.length > 0
          ? Buffer.concat([this.rest, this.buffer.subarray(0, bytesRead)])
          : this.buffer.subarray(0, bytesRead);
      const cut = chunk.lastIndexOf(0x0a);
      this.rest = Buffer.from(chunk.subarray(cut + 1));
      if (cut < 0) continue;
      this.batchStartSum = this.sum;
      this.sum = crc32(chunk.subarray(0, cut + 1), this.sum);
      const lines = textOf(chunk.subarray(0, cut)).split('\n');
      return lines;
    }
  }
}
