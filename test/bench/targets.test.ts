/**
 * The bench's targets table and its modes (bench/targets.ts, bench/options.ts), on made-up
 * figures: the bench itself takes minutes and its figures depend on the machine, but which row
 * it judges against which threshold, and what `--only issue23` measures, do not.
 */
import { describe, expect, it } from 'vitest';
import type { Load } from '../../bench/load.js';
import { benchOptions, DEFAULT_LISTINGS } from '../../bench/options.js';
import { ENDPOINTS, type EndpointName, type Measured } from '../../bench/scenarios.js';
import type { SizeResult } from '../../bench/size.js';
import type { StartMeasure } from '../../bench/start.js';
import { targets } from '../../bench/targets.js';

const rps = (n: number): Load => ({ rps: n, p50: 1, p99: 5, non2xx: 0, errors: 0, total: n });

function size(
  listings: number,
  page: number,
  express: number,
  pageOne: number,
  expressOne: number,
): SizeResult {
  const endpoints = Object.fromEntries(ENDPOINTS.map((e) => [e, rps(1000)])) as Record<
    EndpointName,
    Measured
  >;
  endpoints['listings page'] = rps(page);
  return {
    listings,
    freshReadyMs: 100,
    firstRequestMs: 10,
    firstSearchMs: 10,
    fileMb: 1,
    rssMb: 200,
    pageBytes: 9000,
    endpoints,
    writes: { clock: rps(2000) },
    refs: { bare: rps(10_000), express: rps(express) },
    single: { page: rps(pageOne), bare: rps(10_000), express: rps(expressOne) },
  };
}

const start = (id: StartMeasure['id'], ms: number): StartMeasure => ({
  id,
  name: id,
  firstAnswerMs: ms,
  rangeMs: [ms, ms],
  groupRssMb: 100,
});

/** The targets table's rows as `name → met`. */
function judged(results: SizeResult[], starts: StartMeasure[]): Map<string, string> {
  const rows = targets(results, starts, 10).filter((l) => l.startsWith('| ') && !l.startsWith('| target'));
  return new Map(
    rows.map((l) => l.split(' | ')).map((cells) => [cells[0].slice(2), cells[2].replace(' |', '')]),
  );
}

describe('bench targets', () => {
  it('judges the listings page against Express res.json at the default seed and 10k, at 10 and 1 connections', () => {
    const rows = judged(
      [size(DEFAULT_LISTINGS, 3000, 2000, 900, 1000), size(10_000, 1000, 2000, 2000, 1000)],
      [],
    );
    const at = (k: string, c: string) =>
      rows.get(`listings page at ${k} ≥ bare Express 5 res.json, ${c} (÷ Express res.json)`);
    expect([at('500', '10 connections'), at('500', '1 connection')]).toEqual(['yes', 'NO']);
    expect([at('10k', '10 connections'), at('10k', '1 connection')]).toEqual(['NO', 'yes']);
  });

  it('holds the in-memory CLI to 500 ms and startSandbox() to 400 ms, and says what it did not measure', () => {
    const rows = judged([size(10_000, 1, 1, 1, 1)], [start('in-memory', 480), start('in-process', 420)]);
    const keys = [...rows.keys()];
    expect(rows.get(keys.find((k) => k.includes('--in-memory')) as string)).toBe('yes');
    expect(rows.get(keys.find((k) => k.includes('startSandbox()')) as string)).toBe('NO');
    expect(rows.get('peak RSS ≤ 300 MB at 100k')).toBe('not measured');
    expect(rows.get('login at 10k ≥ 500/s (10 connections)')).toBe('yes');
    expect(rows.get('≥ 1000 acknowledged durable writes/s at 10k')).toBe('yes');
  });
});

describe('bench options', () => {
  it('BENCH_ONLY=issue23 measures the default seed, 10k and 100k and leaves bench/results.md alone', () => {
    const o = benchOptions([], { BENCH_ONLY: 'issue23' });
    expect(o).toMatchObject({ mode: 'issue23', sizes: [DEFAULT_LISTINGS, 10_000, 100_000], out: undefined });
    expect(benchOptions(['--only', 'issue23', '--out', '/tmp/x.md']).out).toBe('/tmp/x.md');
    expect(benchOptions([], {}).out).toMatch(/bench\/results\.md$/);
  });

  it('refuses a mode it does not have', () => {
    expect(() => benchOptions(['--only', 'listings'], {})).toThrow(/long-ledger, issue23/);
  });
});
