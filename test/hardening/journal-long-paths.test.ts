import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/sandbox.js';
import { childSandbox } from './child-sandbox.js';

// Issue 14, One request must never freeze the process (path-patterns.test.ts), as an audit found it
// still did: the lazily built automaton that matched path patterns started over whenever its states
// were full, so 66 distinct 4-letter words joined by `*` against 15,000-character paths made of
// their prefixes held the process up for seconds, and an answer of 1,000 such entries was tens of
// MB of JSON (docs/security.md T23 has the figures). A journal of long paths must answer every
// filter within the budget of one request, and rightly; so must a request matched against 100
// sticky scopes.

const EVIL = '/**a**a**a**a**a**a**a**a**b';

const { call, cheap, fill } = childSandbox(['--listings', '60', '--rate-limit', '0']);

// The audit's words: 4-letter words of a seeded generator, joined by `*` after `/**` up to the
// 200-character cap; a path holds each word in order, between prefixes of others, up to 15,000
// characters. With the pattern ending in `*` and no `/` in the path, every such path matches.
let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const word = () => Array.from({ length: 4 }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
const WORDS: string[] = [];
while (3 + (WORDS.length + 1) * 5 <= 200) WORDS.push(word());
const WORDS_PATTERN = `/**${WORDS.join('*')}*`;
const somePrefix = (whole = false) => {
  const w = WORDS[Math.floor(random() * WORDS.length)];
  return w.slice(0, 1 + Math.floor(random() * (whole ? w.length : w.length - 1)));
};
function wordsPath(): string {
  let path = '/';
  for (const w of WORDS) {
    for (let i = 0; i < 30; i += 1) path += somePrefix();
    path += w;
  }
  while (path.length < 15_000) path += somePrefix(true);
  return path.slice(0, 15_000);
}

const inSandbox = (id: string) => ({ 'x-sandbox-id': id });
const filter = (pattern: string, more = '') =>
  `/__sandbox/requests?path=${encodeURIComponent(pattern)}${more.includes('limit=') ? '' : '&limit=1000'}${more}`;

describe("a journal of long paths: every filter answers within one request's budget", () => {
  const sandbox = 'long-paths';
  const paths = Array.from({ length: 300 }, wordsPath);
  const CAP_BYTES = 2 * 1024 * 1024;
  /** The paths in the journal's order, newest first (read by the first test, in pages). */
  let newestFirst: string[] = [];

  beforeAll(async () => {
    await fill(sandbox, paths);
    // The journal's code compiled and the filling's garbage collected, before anything is measured.
    expect((await call('GET', '/__sandbox/requests?limit=1', undefined, inSandbox(sandbox))).status).toBe(
      200,
    );
  }, 120_000);

  it("the audit's pattern of 66 words finds every path, pages of at most 2 MB chained by next_before", async () => {
    expect(WORDS_PATTERN.length).toBeLessThanOrEqual(200);
    const seen: string[] = [];
    let more = '';
    for (let page = 0; page < 10; page += 1) {
      const res = await cheap('GET', filter(WORDS_PATTERN, more), undefined, inSandbox(sandbox));
      expect(res.status).toBe(200);
      const entries = res.body.requests as { id: string; path: string }[];
      expect(JSON.stringify(res.body).length).toBeLessThanOrEqual(CAP_BYTES + 100);
      seen.push(...entries.map((e) => e.path));
      if (res.body.next_before === undefined) break;
      expect(res.body.next_before).toBe(entries[entries.length - 1].id);
      more = `&before=${String(res.body.next_before)}`;
    }
    expect(seen.length).toBe(paths.length);
    // Sent 20 at a time, the paths are in the journal in the order their answers ended.
    expect([...seen].sort()).toEqual([...paths].sort());
    newestFirst = seen;
  });

  it("the issue's pattern and a one-segment pattern answer at once, and rightly", async () => {
    const issue = await cheap('GET', filter(EVIL, '&limit=50'), undefined, inSandbox(sandbox));
    // `/**a` eight times, then `**b`: eight a's after the first `/`, and a b at the end.
    const eightAs = (p: string) => p.endsWith('b') && (p.slice(1, -1).match(/a/g) ?? []).length >= 8;
    expect((issue.body.requests as { path: string }[]).map((r) => r.path)).toEqual(
      newestFirst.filter(eightAs).slice(0, 50),
    );
    const first = `/${paths[0].slice(1, 4)}*`;
    const segment = await cheap('GET', filter(first, '&limit=50'), undefined, inSandbox(sandbox));
    expect((segment.body.requests as { path: string }[]).map((r) => r.path)).toEqual(
      newestFirst.filter((p) => p.startsWith(first.slice(0, -1))).slice(0, 50),
    );
  });

  it('a read whose matching would pass 50 ms of CPU time stops there with a 400 that says so', async () => {
    // A `*` between two `**` takes the automaton: some 7 word steps a character of 300 × 15,000.
    const costly = `/**${WORDS.slice(0, 30).join('*')}**`;
    const res = await cheap('GET', filter(costly), undefined, inSandbox(sandbox));
    expectError(res, 400, /took more than 50 ms of CPU time .*stopped after \d+ of 300 entries/);
    // Narrowed by method (none of these was a POST), it costs nothing and finds nothing.
    const narrowed = await cheap('GET', filter(costly, '&method=POST'), undefined, inSandbox(sandbox));
    expect(narrowed.body.requests).toEqual([]);
  });

  it('a long literal that overlaps itself, against runs of one letter, stays within the budget', async () => {
    // The engine's string search (Boyer-Moore-Horspool) shifts by one: its slowest case.
    const runs = 'runs-of-a';
    await fill(
      runs,
      Array.from({ length: 300 }, (_, i) => `/${'a'.repeat(15_000 - String(i).length)}${i}`),
    );
    expect((await call('GET', '/__sandbox/requests?limit=1', undefined, inSandbox(runs))).status).toBe(200);
    for (const pattern of [
      `/**${'a'.repeat(194)}b*`,
      `/*${'a'.repeat(194)}b**`,
      `/**${'a'.repeat(190)}b**a*`,
    ]) {
      const res = await cheap('GET', filter(pattern), undefined, inSandbox(runs));
      if (res.status === 200) expect(res.body.requests).toEqual([]);
      else expectError(res, 400, /took more than 50 ms of CPU time/);
    }
  });

  it('at most 10 sticky switches have a * between two **; 100 switches cost a long request little', async () => {
    const scoped = (path: string) =>
      call(
        'POST',
        '/__sandbox/scenarios',
        { name: 'latency', param: 1, scope: { path } },
        inSandbox(sandbox),
      );
    for (let i = 0; i < 10; i += 1)
      expect((await scoped(`/**${WORDS.slice(i, i + 38).join('*')}**`)).status).toBe(201);
    expectError(
      await scoped(`/**${WORDS.slice(10, 48).join('*')}**`),
      409,
      /at most 10 sticky .* between two \*\*/,
    );
    for (let i = 0; i < 90; i += 1)
      expect((await scoped(`/**${WORDS.slice(i % 20).join('*')}*`.slice(0, 200))).status).toBe(201);
    const res = await cheap('GET', wordsPath(), undefined, inSandbox(sandbox));
    expect(res.status).toBe(404);
    expect((await call('DELETE', '/__sandbox/scenarios', undefined, inSandbox(sandbox))).status).toBe(200);
  });
});
