import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './child.js';
import { defaultConfig } from '../src/process/config.js';

/**
 * What a run measures: everything; the long-ledger row alone; or only the rows issue 23's targets
 * judge (listings page and its references at 1 and 10 connections, login, durable writes, peak
 * RSS, the in-memory and in-process starts), for a quick look while that work is under way.
 */
export type BenchMode = 'all' | 'long-ledger' | 'issue23' | 'issue24';

export interface BenchOptions {
  mode: BenchMode;
  quick: boolean;
  sizes: number[];
  durationS: number;
  connections: number;
  writeConnections: number;
  runtime: 'dist' | 'tsx';
  /** Starts per measured start row (and restarts from the existing file); the median is the figure. */
  restarts: number;
  /** Where the report goes; undefined: stdout only (a partial run leaves bench/results.md alone). */
  out?: string;
}

/** The catalogue a sandbox gets without `--listings` (the default seed): issue 23 judges it. */
export const DEFAULT_LISTINGS = defaultConfig.listings;

const MODES: BenchMode[] = ['all', 'long-ledger', 'issue23', 'issue24'];

function modeOf(value: string | undefined): BenchMode {
  const mode = (value || 'all') as BenchMode;
  if (!MODES.includes(mode))
    throw new Error(`--only / BENCH_ONLY: ${value} (one of long-ledger, issue23, issue24)`);
  return mode;
}

/** The sizes measured when `--sizes` is not given. */
function defaultSizes(mode: BenchMode, quick: boolean): number[] {
  if (mode === 'issue23' || mode === 'issue24') return [DEFAULT_LISTINGS, 10_000, 100_000];
  if (quick) return [DEFAULT_LISTINGS, 10_000];
  // 1k stays next to the default seed: earlier runs (docs/hardening.md) compare at 1k.
  return [DEFAULT_LISTINGS, 1_000, 10_000, 100_000];
}

/** `npm run bench -- [flags]`, with `BENCH_ONLY` standing for `--only` (docs/hardening.md). */
export function benchOptions(args = process.argv.slice(2), env = process.env): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      quick: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'write-connections': { type: 'string' },
      runtime: { type: 'string', default: 'dist' },
      only: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const mode = modeOf(values.only ?? env.BENCH_ONLY);
  const quick = values.quick === true;
  const full = mode === 'all';
  return {
    mode,
    quick,
    sizes: values.sizes ? values.sizes.split(',').map(Number) : defaultSizes(mode, quick),
    durationS: Number(values.duration ?? (quick ? 2 : 5)),
    connections: Number(values.connections ?? 10),
    writeConnections: Number(values['write-connections'] ?? 100),
    runtime: values.runtime === 'tsx' ? 'tsx' : 'dist',
    restarts: quick ? 3 : 5,
    out: values.out ?? (full ? join(ROOT, 'bench', 'results.md') : undefined),
  };
}
