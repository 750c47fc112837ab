import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Load } from './load.js';
import type { LongLedger } from './long-ledger.js';
import { ENDPOINTS, type EndpointName, type Measured } from './scenarios.js';
import type { StartMeasure } from './start.js';

export interface SizeResult {
  listings: number;
  freshReadyMs: number;
  /** Median of the restarts from the existing data file, and their range. */
  existingReadyMs: number;
  existingReadyRangeMs: [number, number];
  /** The first listings request after ready (the validator compiles the spec lazily). */
  firstRequestMs: number;
  fileMb: number;
  rssMb: number | null;
  pageBytes: number | null;
  endpoints: Record<EndpointName, Measured>;
  writes: Record<string, Load>;
  /** 20,000 fundings of one wallet (measured at one size only). */
  longLedger?: LongLedger;
  refs: { bare: Load; express: Load };
}

export interface RunInfo {
  machine: string;
  runtime: string;
  quick: boolean;
  durationS: number;
  connections: number;
  writeConnections: number;
  totalS: number;
  results: SizeResult[];
  starts: StartMeasure[];
}

/** `nproc`, CPU model, memory, Node version, kernel. */
export function machine(): string {
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc').toString().trim();
  } catch {
    // os.cpus() is the fallback
  }
  let kernel = '';
  try {
    kernel = readFileSync('/proc/version', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    // not Linux
  }
  const mem = (totalmem() / 1024 ** 3).toFixed(1);
  return `nproc ${nproc}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${mem} GiB RAM, Node ${process.version}, ${kernel}`;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function row(name: string, m: Measured, refs?: SizeResult['refs']): string {
  if ('missing' in m) return `| ${name} | ${m.missing} | | | | | |`;
  const ratio = (ref: Load) => (refs && ref.rps > 0 ? f2(m.rps / ref.rps) : '');
  const bad = m.non2xx + m.errors > 0 ? ` (${m.non2xx} non-2xx, ${m.errors} errors of ${m.total})` : '';
  return `| ${name} | ${f0(m.rps)}${bad} | ${m.p50} | ${m.p99} | ${refs ? ratio(refs.bare) : ''} | ${refs ? ratio(refs.express) : ''} | |`;
}

function sizeSection(r: SizeResult): string[] {
  const lines = [
    `### ${r.listings.toLocaleString('en-US')} listings`,
    '',
    `Ready: ${f0(r.freshReadyMs)} ms fresh seed, ${f0(r.existingReadyMs)} ms from the existing data file ` +
      `(${f1(r.fileMb)} MB; median of the restarts, range ${f0(r.existingReadyRangeMs[0])}–` +
      `${f0(r.existingReadyRangeMs[1])} ms); first listings request after ready ${f0(r.firstRequestMs)} ms; ` +
      `peak RSS ${r.rssMb === null ? 'n/a' : `${f0(r.rssMb)} MB`}; listings page ${r.pageBytes ?? 'n/a'} bytes.`,
    '',
    '| endpoint | req/s | p50 ms | p99 ms | ÷ node:http | ÷ Express res.json | |',
    '|---|---:|---:|---:|---:|---:|---|',
    row('reference: bare node:http (same bytes)', r.refs.bare),
    row('reference: bare Express 5 res.json', r.refs.express),
  ];
  for (const name of ENDPOINTS)
    lines.push(row(name, r.endpoints[name], name === 'listings page' ? r.refs : undefined));
  lines.push('', '| durable write (file store, group commit) | acknowledged writes/s | p50 ms | p99 ms |');
  lines.push('|---|---:|---:|---:|');
  for (const [name, w] of Object.entries(r.writes)) {
    const bad = w.non2xx + w.errors > 0 ? ` (${w.non2xx} non-2xx, ${w.errors} errors)` : '';
    lines.push(`| ${name} | ${f0(w.rps)}${bad} | ${w.p50} | ${w.p99} |`);
  }
  if (r.longLedger) lines.push('', ...longLedgerRows(r.longLedger));
  return [...lines, ''];
}

/** The long-ledger row: the first and the last window of fundings, rate and bytes written. */
function longLedgerRows(l: LongLedger): string[] {
  const bytes = (b: number | null) => (b === null ? 'n/a' : f0(b));
  const bad = l.failed > 0 ? ` (${l.failed} failed)` : '';
  return [
    `| long ledger: ${f0(l.total)} fundings of one wallet, ${l.connections} connections${bad} | first ${f0(l.window)} | last ${f0(l.window)} | last ÷ first |`,
    '|---|---:|---:|---:|',
    `| acknowledged fundings/s | ${f0(l.firstRps)} | ${f0(l.lastRps)} | ${f2(l.lastRps / l.firstRps)} |`,
    `| bytes the process wrote per funding (/proc wchar: change log, snapshots, responses) | ${bytes(l.firstBytes)} | ${bytes(l.lastBytes)} | ${l.firstBytes && l.lastBytes ? f2(l.lastBytes / l.firstBytes) : ''} |`,
  ];
}

function targets(results: SizeResult[]): string[] {
  const at = (n: number) => results.find((r) => r.listings === n);
  const lines = ['## Targets', '', '| target | measured | met |', '|---|---|---|'];
  const add = (name: string, value: string, ok: boolean | null) =>
    lines.push(`| ${name} | ${value} | ${ok === null ? 'not measured' : ok ? 'yes' : 'NO'} |`);
  const r10 = at(10_000);
  const r100 = at(100_000);
  const page = r10?.endpoints['listings page'];
  if (r10 && page && !('missing' in page)) {
    const ratio = page.rps / r10.refs.bare.rps;
    add('listings page at 10k ≥ 0.20 of bare node:http', f2(ratio), ratio >= 0.2);
  } else add('listings page at 10k ≥ 0.20 of bare node:http', 'n/a', null);
  // Judged on searches the response cache cannot answer: each request a different URL.
  for (const name of ['q search, uncached', 'geo search, uncached'] as const) {
    const m = r100?.endpoints[name];
    if (m && !('missing' in m)) add(`${name} p99 ≤ 20 ms at 100k`, `${m.p99} ms`, m.p99 <= 20);
    else add(`${name} p99 ≤ 20 ms at 100k`, 'n/a', null);
  }
  if (r10)
    add(
      'ready ≤ 500 ms from an existing 10k file (median of the restarts)',
      `${f0(r10.existingReadyMs)} ms (${f0(r10.existingReadyRangeMs[0])}–${f0(r10.existingReadyRangeMs[1])})`,
      r10.existingReadyMs <= 500,
    );
  if (r100?.rssMb != null) add('peak RSS ≤ 300 MB at 100k', `${f0(r100.rssMb)} MB`, r100.rssMb <= 300);
  else add('peak RSS ≤ 300 MB at 100k', 'n/a', null);
  // Issue 14: a suite that logs in per test must not wait on password hashing (docs/security.md T20).
  const login = r10?.endpoints.login;
  if (login && !('missing' in login)) {
    const allOk = login.non2xx + login.errors === 0;
    add(
      'login at 10k ≥ 500/s (10 connections)',
      `${f0(login.rps)}/s${allOk ? '' : ` (${login.non2xx + login.errors} failed)`}`,
      login.rps >= 500 && allOk,
    );
    add('login p99 < 50 ms at 10k (10 connections)', `${login.p99} ms`, login.p99 < 50);
  } else {
    add('login at 10k ≥ 500/s (10 connections)', 'n/a', null);
    add('login p99 < 50 ms at 10k (10 connections)', 'n/a', null);
  }
  if (r10) {
    const best = Math.max(...Object.values(r10.writes).map((w) => w.rps));
    add('≥ 1000 acknowledged durable writes/s at 10k', `${f0(best)}/s`, best >= 1000);
  }
  const ledger = results.find((r) => r.longLedger)?.longLedger;
  const ledgerTarget =
    'last 1,000 of 20,000 fundings of one wallet within 20% of the first 1,000 (acknowledged/s)';
  if (ledger) {
    const ratio = ledger.lastRps / ledger.firstRps;
    add(
      ledgerTarget,
      `${f0(ledger.firstRps)}/s → ${f0(ledger.lastRps)}/s (${f2(ratio)})`,
      ratio >= 0.8 && ledger.failed === 0,
    );
  } else add(ledgerTarget, 'n/a', null);
  return [...lines, ''];
}

function startSection(starts: StartMeasure[]): string[] {
  return [
    '## Start from a checkout: `npm start` (the built bundle) against tsx',
    '',
    'The default catalogue from an existing data file, the bundle with its code cache (the usual',
    'restart); median of the starts and their range, ms from spawn to the first answer of',
    '`GET /__sandbox/health`, and the RSS of the whole process group at that moment.',
    '',
    '| command | first answer ms | range ms | process group RSS MB |',
    '|---|---:|---:|---:|',
    ...starts.map(
      (s) =>
        `| ${s.name} | ${f0(s.firstAnswerMs)} | ${f0(s.rangeMs[0])}–${f0(s.rangeMs[1])} | ${f0(s.groupRssMb)} |`,
    ),
    '',
  ];
}

/** bench/results.md */
export function renderResults(info: RunInfo): string {
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${info.quick ? ' -- --quick' : ''}\` (bench/run.ts). Machine: ${info.machine}.`,
    `Sandbox run from \`${info.runtime === 'dist' ? 'node dist/bin.js' : 'node --import tsx src/process/bin.ts'}\` ` +
      `as a separate process with a file store in a temp directory; autocannon in the bench process, ` +
      `${info.connections} connections, ${info.durationS} s per endpoint ` +
      `(${info.writeConnections} connections for durable writes). Whole run: ${f0(info.totalS)} s.`,
    'Latencies are autocannon percentiles (ms, integer resolution). The reference servers run in one',
    'child process and answer every request with the listings-page bytes the sandbox sent at that size.',
    '',
    ...targets(info.results),
    ...startSection(info.starts),
    '## Measurements',
    '',
    ...info.results.flatMap(sizeSection),
  ].join('\n');
}
