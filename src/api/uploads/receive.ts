import type { Request } from 'express';
import type { Options, StorageEngine } from 'multer';
import type { Readable } from 'node:stream';
import { MB, uploadSpace, type Budget, type Part, type UploadSpace } from './space.js';

export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 5 * MB;
/** Enough of a file's first bytes to recognise its kind (magic.ts). */
const HEAD_BYTES = 16;

/**
 * A file of `POST /api/shop/upload` as received: streamed into the sandbox's upload space chunk
 * by chunk, never whole in memory. `refused` says why its bytes were read and thrown away.
 */
export interface ReceivedFile {
  fieldname: string;
  originalname: string;
  size: number;
  head: Buffer;
  part?: Part;
  refused?: 'skipped' | 'size' | 'quota';
}

async function drain(stream: Readable): Promise<number> {
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) size += chunk.length;
  return size;
}

/** Writes one file into `part`, stopping (and reading the rest away) at 5 MB or at the quota. */
async function fill(stream: Readable, part: Part): Promise<Omit<ReceivedFile, 'fieldname' | 'originalname'>> {
  let size = 0;
  let head = Buffer.alloc(0);
  let refused: ReceivedFile['refused'];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (refused) continue;
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      if (size > MAX_FILE_BYTES) refused = 'size';
      else if (!(await part.write(chunk))) refused = 'quota';
      if (refused) await part.drop();
    }
    if (!refused) await part.close();
  } catch (err) {
    await part.drop();
    throw err;
  }
  return refused ? { size, head, refused } : { size, head, part };
}

interface Seen {
  files: number;
  parts: Part[];
  budget?: Promise<Budget>;
}

const seenOf = new WeakMap<Request, Seen>();

/** What a request has received so far; whatever the handler does not keep goes with the response. */
function seen(req: Request): Seen {
  let found = seenOf.get(req);
  if (!found) {
    const fresh: Seen = { files: 0, parts: [] };
    req.res?.once('close', () => {
      for (const part of fresh.parts) void part.drop().catch(() => undefined);
      void fresh.budget?.then((b) => b.release()).catch(() => undefined);
    });
    seenOf.set(req, (found = fresh));
  }
  return found;
}

/** A request can hold at most 10 files of 5 MB, and some framing. */
const MAX_REQUEST_BYTES = MAX_FILES * MAX_FILE_BYTES + 64 * 1024;

function budgetOf(req: Request, sofar: Seen, space: UploadSpace): Promise<Budget> {
  const length = Number(req.headers['content-length']);
  const wanted = Number.isSafeInteger(length) && length > 0 ? Math.min(length, MAX_REQUEST_BYTES) : 0;
  sofar.budget ??= space.budget(wanted);
  return sofar.budget;
}

async function receive(req: Request, file: Express.Multer.File, quotaBytes: number) {
  const sofar = seen(req);
  const index = sofar.files++;
  // Only what the handler can store is written: nothing for a caller without a credential (401
  // later), a wrong field (400) or an eleventh file (413); those are counted and read away.
  const wanted = file.fieldname === 'images' && index < MAX_FILES && req.principal?.user !== undefined;
  if (!wanted) return { size: await drain(file.stream), head: Buffer.alloc(0), refused: 'skipped' as const };
  const space = uploadSpace(req.world, quotaBytes);
  const part = await space.receive(await budgetOf(req, sofar, space));
  sofar.parts.push(part);
  return fill(file.stream, part);
}

function engine(quotaBytes: number): StorageEngine {
  return {
    _handleFile(req, file, done) {
      receive(req, file, quotaBytes).then(
        (info) => done(null, info as unknown as Partial<Express.Multer.File>),
        (err: unknown) => done(err),
      );
    },
    _removeFile(_req, file, done) {
      const { part } = file as unknown as ReceivedFile;
      if (!part) return done(null);
      part.drop().then(() => done(null), done);
    },
  };
}

/**
 * The multipart options the request validator's multer runs with (express-openapi-validator's
 * `fileUploader`): files go to the sandbox's upload space as they arrive, and text fields, which
 * the contract does not allow anyway, are kept tiny so no part of the body piles up in memory.
 */
export function uploadReceiver(quotaMb: number): Options {
  return {
    storage: engine(quotaMb * MB),
    limits: { fields: 10, fieldSize: 1024, fieldNameSize: 100, parts: 100, headerPairs: 100 },
  };
}

/** The files multer received for a request. */
export function receivedFiles(req: { files?: unknown }): ReceivedFile[] {
  return (Array.isArray(req.files) ? req.files : []) as unknown as ReceivedFile[];
}
