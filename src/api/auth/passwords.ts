import { randomBytes, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Worker } from 'node:worker_threads';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function format(salt: Buffer, hash: Buffer): string {
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** Synchronous hash with a given salt: used by the seed, which must be deterministic. */
export function hashPasswordSync(password: string, salt: Buffer): string {
  return format(salt, scryptSync(password, salt, KEY_LENGTH, PARAMS));
}

/**
 * Request-time scrypt runs on one dedicated thread, one hash at a time, not in libuv's pool.
 * Each hash takes a 16 MB block (128·N·r) from malloc; glibc keeps a freed block of that size
 * in the arena of the thread that used it, so four pool threads hashing kept 64 MB resident for
 * good (and busied every pool thread, delaying the change log's fsyncs behind logins). One thread
 * keeps at most one block. Plain CommonJS source, so it runs the same from dist/ and under tsx.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ id, password, salt, length, params }) => {
  try {
    parentPort.postMessage({ id, key: scryptSync(password, salt, length, params) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message) });
  }
});`;

interface Job {
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

let worker: Worker | undefined;
const jobs = new Map<number, Job>();
let nextJob = 0;

/**
 * An idle password thread is stopped after this long: its V8 isolate and scrypt's block held
 * about 40 MB for the rest of the process (measured: RSS 106 → 150 MB after a burst of logins,
 * still 148 MB when idle). The next hash starts a new thread (a few tens of ms).
 */
export const PASSWORD_THREAD_IDLE_MS = 2_000;
let idleTimer: NodeJS.Timeout | undefined;

function hashWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  started.on('message', (msg: { id: number; key?: Uint8Array; error?: string }) => {
    const job = jobs.get(msg.id);
    jobs.delete(msg.id);
    if (jobs.size === 0) {
      started.unref();
      idleTimer = setTimeout(() => {
        if (worker !== started || jobs.size > 0) return;
        worker = undefined;
        void started.terminate();
      }, PASSWORD_THREAD_IDLE_MS).unref();
    }
    if (msg.key) job?.resolve(Buffer.from(msg.key.buffer, msg.key.byteOffset, msg.key.byteLength));
    else job?.reject(new Error(`scrypt failed: ${msg.error}`));
  });
  const fail = (err: Error) => {
    // A thread stopped for being idle is no longer `worker`: the jobs are a newer thread's.
    if (worker !== started) return;
    worker = undefined;
    for (const job of jobs.values()) job.reject(err);
    jobs.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`password thread exited (${code})`)));
  worker = started;
  return started;
}

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  clearTimeout(idleTimer);
  const thread = hashWorker();
  const id = nextJob++;
  return new Promise((resolve, reject) => {
    jobs.set(id, { resolve, reject });
    thread.ref(); // pending work keeps the process alive; an idle thread does not
    thread.postMessage({ id, password, salt, length: KEY_LENGTH, params: PARAMS });
  });
}

/** Hashes off the event loop (on the password thread) with a random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return format(salt, await scryptAsync(password, salt));
}

let dummy: string | undefined;

/**
 * A valid hash of nothing anyone knows: login compares against it for unknown e-mails. Made on
 * first use, not at import, so start-up does not pay a synchronous scrypt.
 */
export function dummyHash(): string {
  dummy ??= hashPasswordSync(randomBytes(16).toString('hex'), randomBytes(16));
  return dummy;
}

/** Constant-time check; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const salt = Buffer.from(parts[4], 'hex');
  const expected = Buffer.from(parts[5], 'hex');
  const actual = await scryptAsync(password, salt);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether the password thread is running (for tests: it stops when idle). */
export function passwordThreadRunning(): boolean {
  return worker !== undefined;
}
