import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxArgs, SANDBOX_READY, startChild, type Child } from '../../bench/child.js';
import { prng } from '../../src/seed/catalog-data.js';
import { readFileStore } from '../../src/store/store.js';
import type { Db } from '../../src/store/types.js';
import { accounts } from '../helpers/sandbox.js';
import { checkedFetch } from '../helpers/checked-clients.js';

/**
 * A child sandbox (the CLI, file store in a temp directory) under concurrent writes is killed
 * with SIGKILL at random moments; after each restart the data file parses and every write that
 * was acknowledged before the kill is there, read both from the file and through the API.
 * A round kills once its writers have had a random number of writes acknowledged, at a random
 * moment after that, so every round does real work however fast or loaded the machine is (a
 * fixed wall-time window did almost none on a busy machine).
 * Those two draws come from a PRNG seeded by DURABILITY_SEED (a random seed when it is unset),
 * printed at the start and in a failure's message: DURABILITY_SEED=<seed> replays the same kill
 * moments (docs/hardening.md, Durability test).
 */
const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 20);
const SEED = seedOf(process.env.DURABILITY_SEED);
const OWNERS = Object.values(accounts);
const dir = mkdtempSync(join(tmpdir(), 'sandbox-durability-'));
const dataFile = join(dir, 'db.json');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Acked {
  keys: Map<string, { owner: string; key: string }>;
  revoked: Set<string>;
  /** Revocations sent; those never acknowledged may or may not have landed. */
  revoking: Set<string>;
  users: Map<string, string>;
}

async function post(base: string, path: string, body: unknown, auth?: string) {
  const res = await checkedFetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** DURABILITY_SEED as given (an integer from 0 to 2^32 - 1), or a random one when unset. */
function seedOf(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return Math.floor(Math.random() * 2 ** 32);
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
    throw new Error(`DURABILITY_SEED must be an integer from 0 to 4294967295, not ${JSON.stringify(text)}`);
  return seed;
}

/** When each round kills: once its writers have `acks` more writes acknowledged, `delayMs` later. */
interface Kill {
  acks: number;
  delayMs: number;
}

/** The kill moments of `rounds` rounds, from `seed` alone (never from the run's timing). */
function killSchedule(seed: number, rounds: number): Kill[] {
  const random = prng(seed);
  return Array.from({ length: rounds }, () => ({
    acks: 8 + Math.floor(random() * 24),
    delayMs: Math.floor(random() * 100),
  }));
}

/** `err` with where it happened and the seed that replays the run appended to its message. */
function withSeed(err: unknown, at: string): unknown {
  const replay = `${at}; DURABILITY_SEED=${SEED} DURABILITY_ROUNDS=${ROUNDS} replays these kill moments`;
  if (err instanceof Error) {
    err.message = `${err.message}\n(${replay})`;
    return err;
  }
  return new Error(`${String(err)}\n(${replay})`);
}

const ackCount = (acked: Acked) => acked.keys.size + acked.revoked.size + acked.users.size;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One writer: creates API keys (revoking some), now and then registers a user; records acks. */
async function writer(base: string, n: number, round: number, acked: Acked, stop: { v: boolean }) {
  const owner = OWNERS[n % OWNERS.length];
  const mine: string[] = [];
  for (let i = 0; !stop.v; i++) {
    try {
      if (i % 5 === 1) {
        const email = `r${round}-w${n}-${i}@durable.test`;
        const res = await post(base, '/api/auth/register', { email, password: `pw-${email}` });
        if (res.status === 201) acked.users.set(email, `pw-${email}`);
      } else if (mine.length >= 1 && i % 2 === 1) {
        const id = mine.shift() as string;
        acked.revoking.add(id);
        const res = await checkedFetch(`${base}/api/settings/api-keys/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${owner.apiKey}` },
        });
        if (res.status === 200) acked.revoked.add(id);
      } else {
        const res = await post(base, '/api/settings/api-keys', { name: `r${round}` }, owner.apiKey);
        if (res.status === 201) {
          acked.keys.set(res.body.id as string, { owner: owner.email, key: res.body.key as string });
          mine.push(res.body.id as string);
        }
      }
    } catch {
      return; // the server died mid-request: that write was never acknowledged
    }
  }
}

async function checkFile(acked: Acked): Promise<Db> {
  // The snapshot always parses on its own; with its change log it holds every acknowledged write.
  expect(() => JSON.parse(readFileSync(dataFile, 'utf8')) as unknown).not.toThrow();
  const db = (await readFileStore(dataFile)) as Db;
  for (const [id, { owner }] of acked.keys) {
    const record = db.api_keys[id];
    expect(record, `acknowledged API key ${id}`).toBeDefined();
    expect(db.users[record.user_id].email).toBe(owner);
    if (acked.revoked.has(id)) expect(record.revoked_at, `acknowledged revocation ${id}`).not.toBeNull();
    else if (!acked.revoking.has(id)) expect(record.revoked_at, `never revoked ${id}`).toBeNull();
  }
  const emails = new Set(Object.values(db.users).map((u) => u.email));
  for (const email of acked.users.keys()) expect(emails.has(email), `acknowledged user ${email}`).toBe(true);
  return db;
}

async function checkApi(base: string, acked: Acked, newUsers: string[]) {
  for (const owner of OWNERS) {
    const res = await checkedFetch(`${base}/api/settings/api-keys`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    const listed = new Set(((await res.json()) as { api_keys: { id: string }[] }).api_keys.map((k) => k.id));
    for (const [id, k] of acked.keys) {
      if (k.owner !== owner.email) continue;
      if (acked.revoked.has(id)) expect(listed.has(id)).toBe(false);
      else if (!acked.revoking.has(id)) expect(listed.has(id)).toBe(true);
    }
  }
  // A surviving key still authenticates; users registered in the last round can log in.
  const live = [...acked.keys].find(([id]) => !acked.revoking.has(id));
  if (live) {
    const me = await checkedFetch(`${base}/api/auth/me`, {
      headers: { authorization: `Bearer ${live[1].key}` },
    });
    expect(me.status).toBe(200);
  }
  for (const email of newUsers.slice(0, 3)) {
    const res = await post(base, '/api/auth/login', { email, password: acked.users.get(email) });
    expect(res.status, email).toBe(200);
  }
}

function start(): Promise<Child> {
  return startChild(sandboxArgs('dist', ['--data', dataFile, '--listings', '20']), SANDBOX_READY, 30_000);
}

describe('durability under SIGKILL', () => {
  it(
    `keeps every acknowledged write across ${ROUNDS} kills at random moments`,
    { timeout: 180_000 },
    async () => {
      const kills = killSchedule(SEED, ROUNDS);
      console.log(
        `durability: DURABILITY_SEED=${SEED} DURABILITY_ROUNDS=${ROUNDS} (set them to replay these kills)`,
      );
      let at = 'before the first round';
      let child: Child | undefined;
      try {
        const acked: Acked = { keys: new Map(), revoked: new Set(), revoking: new Set(), users: new Map() };
        child = await start();
        await checkApi(child.url, acked, []); // warms the validator up, like the restarts below
        let totalAcked = 0;
        for (let round = 0; round < ROUNDS; round++) {
          const { acks, delayMs } = kills[round];
          at = `round ${round + 1} of ${ROUNDS}, killed ${delayMs} ms after ${acks} more acknowledged writes`;
          const before = new Set(acked.users.keys());
          const stop = { v: false };
          const url = child.url;
          const writers = Array.from({ length: 8 }, (_, n) => writer(url, n, round, acked, stop));
          const ackedAtStart = ackCount(acked);
          const deadline = Date.now() + 20_000;
          while (ackCount(acked) - ackedAtStart < acks && Date.now() < deadline) await sleep(5);
          await sleep(delayMs);
          const killed = child.proc;
          child.proc.kill('SIGKILL');
          await new Promise((r) => killed.once('exit', r));
          stop.v = true;
          await Promise.all(writers);
          await checkFile(acked);
          child = await start();
          const newUsers = [...acked.users.keys()].filter((e) => !before.has(e));
          await checkApi(child.url, acked, newUsers);
          totalAcked = ackCount(acked);
        }
        at = `after ${ROUNDS} rounds`;
        // The loop must have done real work: many acknowledged writes, some in every category.
        expect(acked.keys.size).toBeGreaterThan(ROUNDS * 3);
        expect(acked.revoked.size).toBeGreaterThan(0);
        expect(acked.users.size).toBeGreaterThan(0);
        expect(totalAcked).toBeGreaterThan(ROUNDS * 10);
      } catch (err) {
        throw withSeed(err, at);
      } finally {
        child?.proc.kill('SIGKILL');
      }
    },
  );
});
