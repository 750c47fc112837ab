import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Load } from './load.js';
import type { LongLedger } from './long-ledger.js';
import type { BenchMode } from './options.js';
import { ENDPOINTS, type Measured } from './scenarios.js';
import type { SizeResult } from './size.js';
import type { StartMeasure } from './start.js';
import { f0, f2, targets } from './targets.js';

export interface RunInfo {
  machine: string;
  runtime: string;
  mode: BenchMode;
  quick: boolean;
  durationS: number;
  connections: number;
  writeConnections: number;
  totalS: number;
  /** `os.loadavg()` when the run started and when it ended: the figures move with the machine's load. */
  loadAvg: { start: number[]; end: number[] };
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

const f1 = (n: number) => n.toFixed(1);

function row(name: string, m: Measured, refs?: { bare: Load; express: Load }): string {
  if ('missing' in m) return `| ${name} | ${m.missing} | | | | | |`;
  const ratio = (ref: Load) => (refs && ref.rps > 0 ? f2(m.rps / ref.rps) : '');
  const bad = m.non2xx + m.errors > 0 ? ` (${m.non2xx} non-2xx, ${m.errors} errors of ${m.total})` : '';
  return `| ${name} | ${f0(m.rps)}${bad} | ${m.p50} | ${m.p99} | ${refs ? ratio(refs.bare) : ''} | ${refs ? ratio(refs.express) : ''} | |`;
}

/** The ready line, the file, the peak RSS and the page size of one size. */
function sizeSummary(r: SizeResult): string {
  const existing = r.restarts
    ? `${f0(r.restarts.medianMs)} ms from the existing data file (${f1(r.fileMb)} MB; median of the ` +
      `restarts, range ${f0(r.restarts.rangeMs[0])}–${f0(r.restarts.rangeMs[1])} ms)`
    : `restarts from the existing data file (${f1(r.fileMb)} MB) not measured`;
  return (
    `Ready: ${f0(r.freshReadyMs)} ms fresh seed, ${existing}; first listings request after ready ` +
    `${f0(r.firstRequestMs)} ms, first \`q\` search after it ${f0(r.firstSearchMs)} ms; peak RSS ${r.rssMb === null ? 'n/a' : `${f0(r.rssMb)} MB`}; ` +
    `listings page ${r.pageBytes ?? 'n/a'} bytes.`
  );
}

/** The endpoint table: the references and the listings page at the run's connections, then at 1. */
function endpointRows(r: SizeResult): string[] {
  const lines = [
    '| endpoint | req/s | p50 ms | p99 ms | ÷ node:http | ÷ Express res.json | |',
    '|---|---:|---:|---:|---:|---:|---|',
    row('reference: bare node:http (same bytes)', r.refs.bare),
    row('reference: bare Express 5 res.json', r.refs.express),
  ];
  for (const name of ENDPOINTS) {
    lines.push(row(name, r.endpoints[name], name === 'listings page' ? r.refs : undefined));
    if (name !== 'listings page') continue;
    lines.push(row('reference: bare node:http, 1 connection', r.single.bare));
    lines.push(row('reference: bare Express 5 res.json, 1 connection', r.single.express));
    lines.push(row('listings page, 1 connection', r.single.page, r.single));
  }
  return lines;
}

function sizeSection(r: SizeResult): string[] {
  const lines = [
    `### ${r.listings.toLocaleString('en-US')} listings`,
    '',
    sizeSummary(r),
    '',
    ...endpointRows(r),
  ];
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

function startSection(starts: StartMeasure[]): string[] {
  return [
    '## Start',
    '',
    '`npm start` (the built bundle), `node dist/bin.js` and tsx restart from an existing data file of',
    'the default catalogue (the usual restart); `--in-memory` seeds the default catalogue in memory',
    'at every start. Median of the starts and their range, ms from spawn to the first answer of',
    '`GET /__sandbox/health`, and the RSS of the whole process group at that moment. `startSandbox()`',
    'runs in a fresh `node` per start: from `import()` of the package (its `main`) to the sandbox',
    'resolved and answering `GET /__sandbox/health`, then the call alone; RSS of that process.',
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

/** How the run was invoked, for the report's first line. */
function invocation(info: RunInfo): string {
  const flags = [info.quick ? '--quick' : '', info.mode === 'all' ? '' : `--only ${info.mode}`].filter(
    Boolean,
  );
  return `npm run bench${flags.length ? ` -- ${flags.join(' ')}` : ''}`;
}

/** bench/results.md */
export function renderResults(info: RunInfo): string {
  return [
    '# Benchmark results',
    '',
    `Written by \`${invocation(info)}\` (bench/run.ts). Machine: ${info.machine}.`,
    `Sandbox run from \`${info.runtime === 'dist' ? 'node dist/bin.js' : 'node --import tsx src/process/bin.ts'}\` ` +
      `as a separate process with a file store in a temp directory; autocannon in the bench process, ` +
      `${info.connections} connections (and 1 for the listings page and its references), ${info.durationS} s per load ` +
      `(${info.writeConnections} connections for durable writes). Whole run: ${f0(info.totalS)} s.`,
    `Load average (1, 5, 15 min): ${info.loadAvg.start.map(f2).join(' ')} at the start, ` +
      `${info.loadAvg.end.map(f2).join(' ')} at the end.`,
    'Latencies are autocannon percentiles (ms, integer resolution). The reference servers run in one',
    'child process and answer every request with the listings-page bytes the sandbox sent at that size.',
    '',
    ...targets(info.results, info.starts, info.connections),
    ...startSection(info.starts),
    '## Measurements',
    '',
    ...info.results.flatMap(sizeSection),
  ].join('\n');
}
