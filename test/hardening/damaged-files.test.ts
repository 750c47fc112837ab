import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnCli, waitForReady, type Finished } from '../helpers/cli.js';
import { accounts } from '../helpers/sandbox.js';
import { checkedFetch } from '../helpers/checked-clients.js';

/**
 * Class: files the sandbox cannot read. Whatever is damaged (the snapshot `db.json` or its change
 * log `db.json.changes`), the real CLI refuses to start: exit code 2, one line naming the file and
 * the way out (--reset, or moving the file away), and every file left byte for byte as it was.
 * The one damage it may pass over is a torn last change log line (a crash mid-append, never
 * acknowledged), told apart by its missing newline; files left by a kill during a compaction
 * (`db.json.<pid>.tmp`) are removed at start, a named sandbox's too. The token secret file
 * (`jwt-secret`) is refused the same way when it is empty or too short. A named sandbox's files,
 * loaded on its first use, are never moved aside or reseeded: its requests get a 503 naming the
 * file and the way out, and `DELETE /__sandbox` removes them.
 */
const root = mkdtempSync(join(tmpdir(), 'hardening-files-'));
const template = join(root, 'template');
const FUNDS = [101, 202, 303];
afterAll(() => rmSync(root, { recursive: true, force: true }));

const flags = (dir: string) => [
  '--data',
  join(dir, 'db.json'),
  '--port',
  '0',
  '--listings',
  '30',
  '--seed',
  '7',
];

/** A named sandbox of the template, file-backed like the default: `sandboxes/job-7.json` and its change log. */
const NAMED = 'job-7';

async function fund(base: string, cents: number, sandbox?: string) {
  const res = await checkedFetch(`${base}/__sandbox/wallets/${accounts.buyer.email}/fund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sandbox ? { 'x-sandbox-id': sandbox } : {}) },
    body: JSON.stringify({ amount_cents: cents }),
  });
  expect(res.status).toBe(200);
}

/** Every file under `dir` with its bytes (base64), so a test can tell that nothing changed. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  // A sandbox with a snapshot and a change log of a header and one line per fund call.
  const child = spawnCli(flags(template));
  const base = await waitForReady(child);
  for (const cents of FUNDS) await fund(base, cents);
  for (const cents of FUNDS) await fund(base, cents, NAMED);
  child.kill('SIGTERM');
  expect(await exitOf(child)).toBe(0);
  expect(readFileSync(join(template, 'db.json.changes'), 'utf8').split('\n')).toHaveLength(FUNDS.length + 2);
}, 120_000);

/** Runs the CLI until it exits; one that starts serving instead is stopped (and the test fails). */
function runUntilExit(args: string[]): Promise<Finished> {
  const child = spawnCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (/ready at/.test(stdout)) child.kill('SIGTERM');
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Starts the CLI on `dir`, which must refuse: no ready line, exit code 2, no file of `dir`
 * changed, and one line on stderr, which is returned.
 */
async function refusedStart(dir: string): Promise<string> {
  const before = filesOf(dir);
  const run = await runUntilExit(flags(dir));
  expect(run.stdout).not.toMatch(/ready at/);
  expect(filesOf(dir)).toEqual(before);
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0];
}

let copies = 0;
function copy(): string {
  const dir = join(root, `case-${++copies}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** Flips one bit of a byte in the middle of `line` (0-based) of a file, keeping its newlines. */
function flipInLine(path: string, line: number): void {
  const bytes = readFileSync(path);
  let start = 0;
  for (let i = 0; i < line; i++) start = bytes.indexOf(0x0a, start) + 1;
  const end = bytes.indexOf(0x0a, start);
  const at = start + Math.floor((end - start) * 0.6);
  bytes[at] ^= 0x01;
  writeFileSync(path, bytes);
}

/** A digit in the middle of a record, changed to another digit: the JSON still parses. */
function flipDigit(path: string): void {
  const text = readFileSync(path, 'latin1');
  const at = text.indexOf('"balance_cents":') + '"balance_cents":'.length;
  const digit = text[at];
  writeFileSync(
    path,
    text.slice(0, at) + (digit === '9' ? '8' : String(Number(digit) + 1)) + text.slice(at + 1),
    'latin1',
  );
  expect(() => JSON.parse(readFileSync(path, 'utf8')) as unknown).not.toThrow();
}

const write = (text: string) => (path: string) => writeFileSync(path, text);
const cases: [string, 'db.json' | 'db.json.changes', (path: string) => void][] = [
  ['an empty snapshot', 'db.json', write('')],
  ['a snapshot holding null', 'db.json', write('null')],
  ['a snapshot holding {}', 'db.json', write('{}')],
  ['a snapshot holding []', 'db.json', write('[]')],
  [
    'a truncated snapshot',
    'db.json',
    (p) => writeFileSync(p, readFileSync(p).subarray(0, statSync(p).size >> 1)),
  ],
  ['a snapshot with a flipped byte that still parses', 'db.json', flipDigit],
  ['an empty change log', 'db.json.changes', write('')],
  ['a change log holding null', 'db.json.changes', write('null\n')],
  ['a damaged first change log line', 'db.json.changes', (p) => flipInLine(p, 0)],
  ['a damaged middle change log line', 'db.json.changes', (p) => flipInLine(p, 2)],
  ['a damaged last change log line', 'db.json.changes', (p) => flipInLine(p, FUNDS.length)],
  ['a change log whose snapshot is gone', 'db.json.changes', (p) => rmSync(p.replace(/\.changes$/, ''))],
];

describe('the CLI refuses files it cannot read, and changes none of them', () => {
  for (const [what, file, damage] of cases)
    it(`${what}: exit 2, one line naming ${file} and the way out`, async () => {
      const dir = copy();
      damage(join(dir, file));
      const line = await refusedStart(dir);
      expect(line).toContain(join(dir, file));
      expect(line).toMatch(/left untouched\. Move .* away, or start with --reset/);
    }, 60_000);
});

describe('what a crash leaves is not damage', () => {
  it('a torn last change log line (no newline: never acknowledged) is passed over; leftover temporary files are removed', async () => {
    const dir = copy();
    const log = join(dir, 'db.json.changes');
    const text = readFileSync(log, 'utf8');
    writeFileSync(log, text.slice(0, text.length - 40));
    const leftovers = ['db.json.4194305.tmp', 'db.json.changes.4194305.tmp'].map((name) => join(dir, name));
    for (const path of leftovers) writeFileSync(path, '{"half a compaction');
    const child = spawnCli(flags(dir));
    const base = await waitForReady(child);
    try {
      const res = await checkedFetch(`${base}/api/wallet/balance`, {
        headers: { authorization: `Bearer ${accounts.buyer.apiKey}` },
      });
      const { balance_cents } = (await res.json()) as { balance_cents: number };
      expect(balance_cents).toBe(100_000 + FUNDS[0] + FUNDS[1]);
      for (const path of leftovers) expect(existsSync(path), path).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  }, 60_000);
});

describe('the token secret file is refused, not replaced', () => {
  const secretCases: [string, (path: string) => void, RegExp][] = [
    ['an empty jwt-secret', write(''), /is empty/],
    ['a jwt-secret of a few characters', write('short-secret\n'), /holds 12 characters, fewer than 32/],
    ['a jwt-secret that is a directory', (p) => mkdirSync(p), /Cannot read the token secret file/],
  ];
  for (const [what, damage, why] of secretCases)
    it(`${what}: exit 2, one line naming it and the way out, tokens not silently invalidated`, async () => {
      const dir = copy();
      const secret = join(dir, 'jwt-secret');
      if (existsSync(secret)) rmSync(secret);
      damage(secret);
      const line = await refusedStart(dir);
      expect(line).toContain(secret);
      expect(line).toMatch(why);
      expect(line).toMatch(
        /left untouched\. Move .*jwt-secret away .*, or give the secret with --jwt-secret/,
      );
    }, 60_000);
});

describe('a named sandbox whose files cannot be read is refused, its files left as they are', () => {
  it('every damage of the matrix: 503 naming the file and the way out, files unchanged; DELETE /__sandbox removes them', async () => {
    const dir = copy();
    const sandboxes = join(dir, 'sandboxes');
    const source = join(sandboxes, `${NAMED}.json`);
    const ids = cases.map((_, i) => `dmg-${i}`);
    cases.forEach(([, file], i) => {
      const path = join(sandboxes, `${ids[i]}.json`);
      cpSync(source, path);
      cpSync(`${source}.changes`, `${path}.changes`);
      cases[i][2](file === 'db.json' ? path : `${path}.changes`);
    });
    // Leftovers of a compaction killed in a sandbox nobody uses in this run: removed at start.
    const leftovers = ['idle.json.4194305.tmp', 'idle.json.changes.4194305.tmp'].map((n) =>
      join(sandboxes, n),
    );
    for (const path of leftovers) writeFileSync(path, '{"half a compaction');
    const before = filesOf(sandboxes);
    const child = spawnCli(flags(dir));
    const base = await waitForReady(child);
    try {
      for (const path of leftovers) expect(existsSync(path), path).toBe(false);
      const balance = (sandbox: string) =>
        checkedFetch(`${base}/api/wallet/balance`, {
          headers: { authorization: `Bearer ${accounts.buyer.apiKey}`, 'x-sandbox-id': sandbox },
        });
      for (const [i, [what, file]] of cases.entries()) {
        const damaged = join(sandboxes, `${ids[i]}.json${file === 'db.json' ? '' : '.changes'}`);
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const res = await balance(ids[i]);
          const body = (await res.json()) as Record<string, unknown>;
          expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(503);
          expect(Object.keys(body)).toEqual(['error']);
          expect(body.error).toContain(`Sandbox "${ids[i]}" cannot be loaded`);
          expect(body.error, what).toContain(
            what === 'a change log whose snapshot is gone' ? `${damaged}` : damaged,
          );
          expect(body.error).toMatch(
            new RegExp(
              `left untouched: move them away to keep them, or delete the sandbox \\(DELETE /__sandbox with X-Sandbox-Id: ${ids[i]}\\)`,
            ),
          );
        }
      }
      const after = filesOf(sandboxes);
      for (const path of leftovers) delete before[relative(sandboxes, path)];
      expect(after).toEqual(before);
      // The undamaged sandbox of the template is served, with its funds.
      const kept = (await (await balance(NAMED)).json()) as { balance_cents: number };
      expect(kept.balance_cents).toBe(100_000 + FUNDS.reduce((a, b) => a + b, 0));
      // The way out: deleting the sandbox removes its files; its next use starts from the seed.
      const removed = await checkedFetch(`${base}/__sandbox`, {
        method: 'DELETE',
        headers: { 'x-sandbox-id': ids[0] },
      });
      expect(removed.status).toBe(200);
      expect(existsSync(join(sandboxes, `${ids[0]}.json`))).toBe(false);
      expect(existsSync(join(sandboxes, `${ids[0]}.json.changes`))).toBe(false);
      const fresh = (await (await balance(ids[0])).json()) as { balance_cents: number };
      expect(fresh.balance_cents).toBe(100_000);
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  }, 120_000);
});
