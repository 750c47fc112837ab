import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/sandbox.js';
import { childSandbox } from './child-sandbox.js';

// One request must never freeze the process (path-patterns.test.ts), and an audit found that
// patterns built from many words joined by `*` against 15,000-character paths still did
// (docs/security.md T23). A journal of long paths must answer every filter within the budget of
// one request, and rightly; so must a request matched against 100 sticky scopes. Patterns are
// matched by picomatch, which takes only those it matches in time linear in the path: the audit's
// and the issue's patterns are a 400 that names them, and what is measured here is the costliest
// of the patterns it takes.

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

  it("the audit's pattern of 66 words is refused; every path is found in pages of at most 2 MB chained by next_before", async () => {
    expect(WORDS_PATTERN.length).toBeLessThanOrEqual(200);
    const refused = await cheap('GET', filter(WORDS_PATTERN), undefined, inSandbox(sandbox));
    expectError(
      refused,
      400,
      /^query\.path: path pattern "\/\*\*[a-z0-9]{4}\*.*" has \*\* inside the segment/,
    );
    const seen: string[] = [];
    let more = '';
    for (let page = 0; page < 10; page += 1) {
      const res = await cheap('GET', filter('/*', more), undefined, inSandbox(sandbox));
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

  it("the issue's pattern is refused at once; a one-segment pattern and the costliest taken answer rightly", async () => {
    const issue = await cheap('GET', filter(EVIL, '&limit=50'), undefined, inSandbox(sandbox));
    expectError(issue, 400, /^query\.path: path pattern "\/\*\*a\*\*a.*" has \*\* inside the segment/);
    const first = `/${paths[0].slice(1, 4)}*`;
    const segment = await cheap('GET', filter(first, '&limit=50'), undefined, inSandbox(sandbox));
    expect((segment.body.requests as { path: string }[]).map((r) => r.path)).toEqual(
      newestFirst.filter((p) => p.startsWith(first.slice(0, -1))).slice(0, 50),
    );
    // 30 characters after the `*`: each compared at every place in 300 paths of 15,000.
    const word = WORDS[WORDS.length - 1];
    const costliest = `/**/*${word.repeat(7)}${word.slice(0, 2)}`;
    const tail = await cheap('GET', filter(costliest, '&limit=50'), undefined, inSandbox(sandbox));
    expect((tail.body.requests as { path: string }[]).map((r) => r.path)).toEqual(
      newestFirst.filter((p) => p.endsWith(costliest.slice(5))).slice(0, 50),
    );
  });

  it('over runs of one letter the costliest patterns taken stay within the budget, or stop at it with a 400', async () => {
    // 32 characters after a wildcard, each compared at every place in 1,000 paths of 15,000 a's.
    const runs = 'runs-of-a';
    await fill(
      runs,
      Array.from({ length: 1000 }, (_, i) => `/${'a'.repeat(15_000 - String(i).length)}${i}`),
    );
    expect((await call('GET', '/__sandbox/requests?limit=1', undefined, inSandbox(runs))).status).toBe(200);
    const costly = `/**/*${'a'.repeat(30)}`;
    const res = await cheap('GET', filter(costly), undefined, inSandbox(runs));
    expectError(res, 400, /took more than 50 ms of CPU time .*stopped after \d+ of 1000 entries/);
    // Narrowed by method (none of these was a POST), it costs nothing and finds nothing.
    const narrowed = await cheap('GET', filter(costly, '&method=POST'), undefined, inSandbox(runs));
    expect(narrowed.body.requests).toEqual([]);
    for (const pattern of [`/*${'a'.repeat(32)}`, `/*${'a'.repeat(31)}b`, `/**/${'a'.repeat(30)}b`]) {
      const answer = await cheap('GET', filter(pattern), undefined, inSandbox(runs));
      if (answer.status === 200) expect(answer.body.requests).toEqual([]);
      else expectError(answer, 400, /took more than 50 ms of CPU time/);
    }
  });

  it("the audit's long literals after a wildcard are refused, naming the pattern", async () => {
    for (const pattern of [`/**${'a'.repeat(194)}b*`, `/*${'a'.repeat(194)}b**`, `/*${'a'.repeat(33)}`]) {
      const res = await cheap('GET', filter(pattern), undefined, inSandbox('runs-of-a'));
      expectError(res, 400, new RegExp(`^query\\.path: path pattern "\\/\\*+a{33}`));
    }
  });

  it('100 sticky switches of the costliest patterns taken cost a long request little', async () => {
    const scoped = (path: string) =>
      call(
        'POST',
        '/__sandbox/scenarios',
        { name: 'latency', param: 1, scope: { path } },
        inSandbox(sandbox),
      );
    expectError(
      await scoped(`/**${WORDS.slice(10, 48).join('*')}**`),
      400,
      /^body\.scope\.path: path pattern ".*" has \*\* inside the segment/,
    );
    // 32 characters after the wildcards, all but the last few a's: compared at every place of a run.
    for (let i = 0; i < 100; i += 1) {
      const runOf = (n: number) => `${'a'.repeat(n - String(i).length)}${i}`;
      expect((await scoped(i % 2 === 0 ? `/**/*${runOf(30)}` : `/*${runOf(32)}`)).status).toBe(201);
    }
    for (const path of [
      wordsPath(),
      `/${'a'.repeat(15_000)}`,
      `/api/${'a/'.repeat(7_500)}`,
      '/'.repeat(15_000),
    ]) {
      const res = await cheap('GET', path, undefined, inSandbox(sandbox));
      expect(res.status).toBe(404);
    }
    expect((await call('DELETE', '/__sandbox/scenarios', undefined, inSandbox(sandbox))).status).toBe(200);
  });
});
