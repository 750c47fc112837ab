/**
 * `npm run bench [-- --quick] [--sizes 1000,10000] [--duration 5] [--connections 10] [--runtime tsx]
 *  [--only long-ledger]`
 * Starts the sandbox CLI as a separate process per catalogue size, loads it with autocannon,
 * measures the reference servers on the same page bytes, and writes bench/results.md.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDist, peakRssMb, ROOT, sandboxArgs, SANDBOX_READY, startChild, stopChild } from './child.js';
import { call, load, type Load } from './load.js';
import { measureLongLedger } from './long-ledger.js';
import { machine, renderResults, type SizeResult } from './report.js';
import { measureEndpoints, measureWrites } from './scenarios.js';
import { measureStarts } from './start.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    'write-connections': { type: 'string' },
    runtime: { type: 'string', default: 'dist' },
    /** `long-ledger`: only the 20,000 fundings row (at the first size given). */
    only: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench', 'results.md') },
  },
});
const quick = values.quick === true;
const sizes = (values.sizes ?? (quick ? '1000,10000' : '1000,10000,100000')).split(',').map(Number);
const durationS = Number(values.duration ?? (quick ? 2 : 5));
const connections = Number(values.connections ?? 10);
const writeConnections = Number(values['write-connections'] ?? 100);
const runtime = values.runtime === 'tsx' ? 'tsx' : 'dist';
const onlyLedger = values.only === 'long-ledger';
/** The size at which the long-ledger row runs (it measures the ledger, not the catalogue). */
const ledgerSize = onlyLedger || !sizes.includes(10_000) ? sizes[0] : 10_000;
/** Starts from the existing data file per size; the median is the figure. */
const RESTARTS = quick ? 3 : 5;

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Starts the reference servers (one child) on the page bytes; `stop` ends them. */
async function references(pageFile: string) {
  const ref = await startChild(
    ['--import', 'tsx', 'bench/reference-servers.ts', pageFile],
    /reference ready at (http:\/\/\S+ http:\/\/\S+)/,
  );
  const [bareUrl, expressUrl] = ref.url.split(' ');
  const run = (url: string) => load({ url: `${url}/api/shop/listings`, connections, durationS });
  return { bare: () => run(bareUrl), express: () => run(expressUrl), stop: () => stopChild(ref) };
}

async function measureSize(listings: number): Promise<SizeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const dataFile = join(dir, 'db.json');
  // Rate limiting stays on (it is part of what is measured) with limits no bench run reaches.
  const flags = [
    '--data',
    dataFile,
    '--listings',
    String(listings),
    '--seed',
    '42',
    '--rate-limit',
    '10000000',
    '--rate-limit-api-key',
    '10000000',
  ];
  try {
    log(`${listings} listings: fresh seed start`);
    const fresh = await startChild(sandboxArgs(runtime, flags), SANDBOX_READY);
    if (onlyLedger) {
      // Warm the write path as the full run does before this row (durable writes that leave the ledger alone).
      await measureWrites(fresh.url, writeConnections, 2);
      log(`${listings} listings: 20,000 fundings of one wallet`);
      const longLedger = await measureLongLedger(fresh.url, fresh.pid, writeConnections);
      await stopChild(fresh);
      return { listings, longLedger } as SizeResult;
    }
    const firstStarted = performance.now();
    const page = await call(fresh.url, 'GET', '/api/shop/listings');
    const firstRequestMs = performance.now() - firstStarted;
    const pageFile = join(dir, 'page.json');
    writeFileSync(
      pageFile,
      page.status === 200 ? page.text : JSON.stringify({ listings: [], pagination: {} }),
    );
    // The references run right before and after the sandbox's endpoints, so all three see the
    // same machine load (on a shared machine it drifts from minute to minute).
    log(`${listings} listings: reference servers and endpoints`);
    const ref = await references(pageFile);
    let refs: SizeResult['refs'];
    let endpoints: SizeResult['endpoints'];
    try {
      const bare = await ref.bare();
      let express: Load | undefined;
      endpoints = await measureEndpoints(fresh.url, connections, durationS, async () => {
        express = await ref.express();
      });
      refs = { bare, express: express as Load };
    } finally {
      await ref.stop();
    }
    log(`${listings} listings: durable writes`);
    const writes = await measureWrites(fresh.url, writeConnections, durationS);
    const rssMb = peakRssMb(fresh.pid);
    await stopChild(fresh);
    const fileMb = statSync(dataFile).size / 1024 / 1024;
    // One start is one sample of a noisy figure (the same start ranges over ±30% on this machine
    // from minute to minute): the median of a few restarts is reported, with its range.
    log(`${listings} listings: ${RESTARTS} restarts from the existing file`);
    const readies: number[] = [];
    for (let k = 0; k < RESTARTS; k += 1) {
      const again = await startChild(sandboxArgs(runtime, flags), SANDBOX_READY);
      readies.push(again.readyMs);
      await stopChild(again);
    }
    // The long ledger last, on a start of its own: its 20,000 fundings would otherwise be in the
    // file the restarts read and in the peak RSS, which the earlier rows were measured without.
    let longLedger: SizeResult['longLedger'];
    if (listings === ledgerSize) {
      log(`${listings} listings: 20,000 fundings of one wallet`);
      const ledger = await startChild(sandboxArgs(runtime, flags), SANDBOX_READY);
      await measureWrites(ledger.url, writeConnections, 2);
      longLedger = await measureLongLedger(ledger.url, ledger.pid, writeConnections);
      await stopChild(ledger);
    }
    readies.sort((a, b) => a - b);
    const existingReadyMs = readies[readies.length >> 1];
    return {
      listings,
      freshReadyMs: fresh.readyMs,
      existingReadyMs,
      existingReadyRangeMs: [readies[0], readies[readies.length - 1]],
      firstRequestMs,
      fileMb,
      rssMb,
      pageBytes: page.status === 200 ? Buffer.byteLength(page.text) : null,
      endpoints,
      writes,
      longLedger,
      refs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // Built whatever the runtime: the start measurements run `npm start` on the bundle.
  buildDist(log);
  const started = Date.now();
  const results: SizeResult[] = [];
  for (const size of onlyLedger ? [ledgerSize] : sizes) results.push(await measureSize(size));
  if (onlyLedger) {
    process.stdout.write(`${JSON.stringify(results[0].longLedger, null, 2)}\n`);
    return;
  }
  const starts = await measureStarts(RESTARTS, log);
  const text = renderResults({
    starts,
    machine: machine(),
    runtime,
    quick,
    durationS,
    connections,
    writeConnections,
    totalS: (Date.now() - started) / 1000,
    results,
  });
  writeFileSync(values.out as string, text);
  process.stdout.write(text);
  log(`written to ${values.out}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
