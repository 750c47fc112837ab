/**
 * Every row of one catalogue size: the CLI started as a separate process on a fresh seed, loaded
 * with autocannon, the reference servers on the same page bytes, durable writes, peak RSS, the
 * restarts from the file it wrote and the long ledger on a start of its own.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssMb, sandboxArgs, SANDBOX_READY, startChild, stopChild, type Child } from './child.js';
import { call, load, type Load } from './load.js';
import { measureLongLedger, type LongLedger } from './long-ledger.js';
import type { BenchOptions } from './options.js';
import { measureEndpoints, measureWrites, type EndpointName, type Measured } from './scenarios.js';

export interface SizeResult {
  listings: number;
  freshReadyMs: number;
  /** Median of the restarts from the existing data file, and their range (not in every mode). */
  restarts?: { medianMs: number; rangeMs: [number, number] };
  /** The first listings request after ready (the validator compiles the spec lazily). */
  firstRequestMs: number;
  /**
   * The first search with `q` after that: it builds the search library's text indexes of the 17
   * languages, once per process, which the rows after it (steady state) do not measure.
   */
  firstSearchMs: number;
  fileMb: number;
  rssMb: number | null;
  pageBytes: number | null;
  endpoints: Record<EndpointName, Measured>;
  writes: Record<string, Load>;
  /** 20,000 fundings of one wallet (measured at one size only). */
  longLedger?: LongLedger;
  /** The references at the run's connections, measured around the listings page row. */
  refs: { bare: Load; express: Load };
  /** The listings page and both references at 1 connection (a client that waits for each answer). */
  single: { page: Measured; bare: Load; express: Load };
}

/** The endpoint rows issues 23 and 24 judge; `--only issue23` / `issue24` measures these alone. */
const ONLY: Partial<Record<BenchOptions['mode'], ReadonlySet<EndpointName>>> = {
  issue23: new Set(['listings page', 'login']),
  issue24: new Set(['listings page', 'q search', 'q search, uncached', 'shopper q, uncached']),
};

/**
 * Which endpoint rows to measure (undefined: all). At 100k `--only issue23` still measures them
 * all: its figure there is the peak RSS, which the other rows' loads can raise (the uncached
 * searches fill the listing-text tables), so only the full set gives the figure a full run gives.
 */
function endpointsOf(o: BenchOptions, listings: number) {
  const names = ONLY[o.mode];
  if (!names || listings === 100_000) return undefined;
  return { names, skipped: `not measured (--only ${o.mode})` };
}

type Log = (line: string) => void;

/** Rate limiting stays on (it is part of what is measured) with limits no bench run reaches. */
function sandboxFlags(dataFile: string, listings: number): string[] {
  return ['--data', dataFile, '--listings', String(listings), '--seed', '42'].concat([
    '--rate-limit',
    '10000000',
    '--rate-limit-api-key',
    '10000000',
  ]);
}

/** The reference servers (one child) on the page bytes, loaded at any number of connections. */
async function references(pageFile: string, durationS: number) {
  const ref = await startChild(
    ['--import', 'tsx', 'bench/reference-servers.ts', pageFile],
    /reference ready at (http:\/\/\S+ http:\/\/\S+)/,
  );
  const [bareUrl, expressUrl] = ref.url.split(' ');
  const run = (url: string, connections: number) =>
    load({ url: `${url}/api/shop/listings`, connections, durationS });
  return {
    bare: (connections: number) => run(bareUrl, connections),
    express: (connections: number) => run(expressUrl, connections),
    stop: () => stopChild(ref),
  };
}

/** The first listings request after ready, and its bytes in a file for the reference servers. */
async function firstPage(url: string, dir: string) {
  const started = performance.now();
  const page = await call(url, 'GET', '/api/shop/listings');
  const firstRequestMs = performance.now() - started;
  const searched = performance.now();
  await call(url, 'GET', '/api/shop/listings?q=lamp');
  const firstSearchMs = performance.now() - searched;
  const pageFile = join(dir, 'page.json');
  const ok = page.status === 200;
  writeFileSync(pageFile, ok ? page.text : JSON.stringify({ listings: [], pagination: {} }));
  return { firstRequestMs, firstSearchMs, pageFile, pageBytes: ok ? Buffer.byteLength(page.text) : null };
}

/**
 * The endpoint rows with the references right before and after the listings page, at the run's
 * connections and then at 1, so each ratio compares loads the machine ran within seconds of each
 * other (on a shared machine its load drifts from minute to minute).
 */
async function measureReads(url: string, pageFile: string, o: BenchOptions, listings: number) {
  const ref = await references(pageFile, o.durationS);
  try {
    const bare = await ref.bare(o.connections);
    let express: Load | undefined;
    let single: SizeResult['single'] | undefined;
    const endpoints = await measureEndpoints(
      url,
      o.connections,
      o.durationS,
      async () => {
        express = await ref.express(o.connections);
        const expressOne = await ref.express(1);
        const page = await load({ url: `${url}/api/shop/listings`, connections: 1, durationS: o.durationS });
        single = { express: expressOne, page, bare: await ref.bare(1) };
      },
      endpointsOf(o, listings),
    );
    return { endpoints, refs: { bare, express: express as Load }, single: single as SizeResult['single'] };
  } finally {
    await ref.stop();
  }
}

/**
 * One start is one sample of a noisy figure (the same start ranges over ±30% on this machine from
 * minute to minute): the median of a few restarts from the existing file, with its range.
 */
async function measureRestarts(flags: string[], o: BenchOptions): Promise<SizeResult['restarts']> {
  const readies: number[] = [];
  for (let k = 0; k < o.restarts; k += 1) {
    const again = await startChild(sandboxArgs(o.runtime, flags), SANDBOX_READY);
    readies.push(again.readyMs);
    await stopChild(again);
  }
  readies.sort((a, b) => a - b);
  return { medianMs: readies[readies.length >> 1], rangeMs: [readies[0], readies[readies.length - 1]] };
}

/** The long ledger on `sandbox`, after durable writes that leave the ledger alone warm the write path. */
async function longLedgerOn(sandbox: Child, o: BenchOptions, log: Log, listings: number) {
  await measureWrites(sandbox.url, o.writeConnections, 2);
  log(`${listings} listings: 20,000 fundings of one wallet`);
  return measureLongLedger(sandbox.url, sandbox.pid, o.writeConnections);
}

/** `--only long-ledger`: the row alone, at the first size. */
export async function measureLedgerOnly(listings: number, o: BenchOptions, log: Log): Promise<LongLedger> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  try {
    const fresh = await startChild(
      sandboxArgs(o.runtime, sandboxFlags(join(dir, 'db.json'), listings)),
      SANDBOX_READY,
    );
    const ledger = await longLedgerOn(fresh, o, log, listings);
    await stopChild(fresh);
    return ledger;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of one size on a fresh seed, then (full runs) the restarts and the long ledger. */
export async function measureSize(listings: number, withLedger: boolean, o: BenchOptions, log: Log) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const dataFile = join(dir, 'db.json');
  const flags = sandboxFlags(dataFile, listings);
  try {
    log(`${listings} listings: fresh seed start`);
    const fresh = await startChild(sandboxArgs(o.runtime, flags), SANDBOX_READY);
    const { pageFile, ...page } = await firstPage(fresh.url, dir);
    log(`${listings} listings: reference servers and endpoints`);
    const reads = await measureReads(fresh.url, pageFile, o, listings);
    log(`${listings} listings: durable writes`);
    const writes = await measureWrites(fresh.url, o.writeConnections, o.durationS);
    const rssMb = peakRssMb(fresh.pid);
    await stopChild(fresh);
    const fileMb = statSync(dataFile).size / 1024 / 1024;
    const result: SizeResult = {
      listings,
      freshReadyMs: fresh.readyMs,
      ...page,
      fileMb,
      rssMb,
      writes,
      ...reads,
    };
    if (o.mode !== 'all') return result;
    log(`${listings} listings: ${o.restarts} restarts from the existing file`);
    result.restarts = await measureRestarts(flags, o);
    // The long ledger last, on a start of its own: its 20,000 fundings would otherwise be in the
    // file the restarts read and in the peak RSS, which the earlier rows were measured without.
    if (withLedger) {
      const ledger = await startChild(sandboxArgs(o.runtime, flags), SANDBOX_READY);
      result.longLedger = await longLedgerOn(ledger, o, log, listings);
      await stopChild(ledger);
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
