/**
 * `npm run bench [-- --quick] [--sizes 500,10000] [--duration 5] [--connections 10] [--runtime tsx]
 *  [--only long-ledger|issue23|issue24] [--out FILE]`, `BENCH_ONLY=issue23` standing for `--only issue23`.
 * Starts the sandbox CLI as a separate process per catalogue size, loads it with autocannon,
 * measures the reference servers on the same page bytes and the starts, and writes
 * bench/results.md (a full run) or prints the report (`--only`, unless `--out` is given).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { buildDist } from './child.js';
import { measureInProcessStarts } from './in-process-start.js';
import { benchOptions, type BenchOptions } from './options.js';
import { machine, renderResults } from './report.js';
import { measureLedgerOnly, measureSize, type SizeResult } from './size.js';
import { measureStarts, type StartMeasure } from './start.js';

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** The size at which the long-ledger row runs (it measures the ledger, not the catalogue). */
function ledgerSize(o: BenchOptions): number {
  return o.mode === 'long-ledger' || !o.sizes.includes(10_000) ? o.sizes[0] : 10_000;
}

/** Every start row in a full run; the in-memory CLI and `startSandbox()` for issue 23. */
async function starts(o: BenchOptions): Promise<StartMeasure[]> {
  const ids = o.mode === 'issue23' || o.mode === 'issue24' ? new Set(['in-memory'] as const) : undefined;
  return [...(await measureStarts(o.restarts, log, ids)), ...(await measureInProcessStarts(o.restarts, log))];
}

async function main(): Promise<void> {
  const o = benchOptions();
  // Built whatever the runtime: the start measurements run the bundle and the library entry.
  buildDist(log);
  const started = Date.now();
  const loadStart = loadavg();
  if (o.mode === 'long-ledger') {
    const ledger = await measureLedgerOnly(ledgerSize(o), o, log);
    process.stdout.write(`${JSON.stringify(ledger, null, 2)}\n`);
    return;
  }
  const results: SizeResult[] = [];
  for (const size of o.sizes) results.push(await measureSize(size, size === ledgerSize(o), o, log));
  const startRows = await starts(o);
  const text = renderResults({
    starts: startRows,
    machine: machine(),
    runtime: o.runtime,
    mode: o.mode,
    quick: o.quick,
    durationS: o.durationS,
    connections: o.connections,
    writeConnections: o.writeConnections,
    totalS: (Date.now() - started) / 1000,
    loadAvg: { start: loadStart, end: loadavg() },
    results,
  });
  if (o.out) writeFileSync(o.out, text);
  process.stdout.write(text);
  if (o.out) log(`written to ${o.out}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
