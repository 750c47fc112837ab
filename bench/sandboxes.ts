/**
 * Cost of one isolated sandbox (issue 7): time to create it and the memory it holds, in memory and
 * file-backed, at each requested catalog size; then the scale-out rows docs/scaling.md quotes
 * (bench/replicas.ts): one replica's RSS as it holds more sandboxes, and requests a second with
 * `--jobs` parallel jobs on one replica directly and on 1, 2, 3 replicas behind nginx.
 *
 *   npm run bench:sandboxes -- [--listings 500,10000] [--count 20] [--no-synthetic]
 *                              [--replicas 1,2,3 | --replicas 0] [--hold 100,200,400] [--jobs 30] [--duration 5]
 *
 * A new sandbox is exactly what a first request with a new X-Sandbox-Id gets: the registry's
 * `open(id)`, i.e. a JSON.parse of the seed image cached per process (+ a file write when
 * file-backed). When the seeders produce fewer listings than asked (the catalog seeder is not in
 * this tree yet), synthetic listings shaped like ListingRecord fill the gap, and the report says so.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../src/app/app.js';
import { makeConfig, type Config } from '../src/process/config.js';
import { freshDb } from '../src/seed/seed.js';
import type { Db } from '../src/store/types.js';
import { openDefaultWorld, seedOptionsOf } from '../src/world/open.js';
import { createWorldRegistry } from '../src/world/registry.js';
import { addSyntheticListings } from './synthetic-listings.js';
import { buildDist } from './child.js';
import { nginxMissing } from '../test/helpers/nginx.js';
import { measureHolding, measureThroughput } from './replicas.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '500,10000' },
    count: { type: 'string', default: '20' },
    'no-synthetic': { type: 'boolean', default: false },
    replicas: { type: 'string', default: '1,2,3' },
    hold: { type: 'string', default: '100,200,400' },
    jobs: { type: 'string', default: '30' },
    duration: { type: 'string', default: '5' },
  },
});
const sizes = values.listings.split(',').map(Number);
const count = Number(values.count);
const MB = 1024 * 1024;

interface Measure {
  medianMs: number;
  minMs: number;
  maxMs: number;
  heapMbPerSandbox: number;
  rssMbPerSandbox: number;
  fileMb?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function settle(): NodeJS.MemoryUsage {
  gc();
  gc();
  return process.memoryUsage();
}

/** The seed for a size: the real one, topped up with synthetic listings when the seeders make fewer. */
function seedFor(config: Config): {
  newDb?: () => Db;
  seeded: number;
  synthetic: number;
  imageMb: number;
  buildMs: number;
} {
  const t0 = performance.now();
  const base = freshDb(seedOptionsOf(config), Date.now());
  const buildMs = performance.now() - t0;
  const seeded = Object.keys(base.listings).length;
  const missing = values['no-synthetic'] ? 0 : Math.max(0, config.listings - seeded);
  if (missing === 0) return { seeded, synthetic: 0, imageMb: JSON.stringify(base).length / MB, buildMs };
  addSyntheticListings(base, missing);
  const image = JSON.stringify(base);
  // The same mechanism as freshDb: one JSON text per process, parsed for each new world.
  return {
    newDb: () => JSON.parse(image) as Db,
    seeded,
    synthetic: missing,
    imageMb: image.length / MB,
    buildMs,
  };
}

async function measure(config: Config, newDb: (() => Db) | undefined): Promise<Measure> {
  const { world } = await openDefaultWorld(config);
  const registry = await createWorldRegistry({ config, defaultWorld: world, newDb });
  await registry.open('warm-up');
  await registry.remove('warm-up');
  const before = settle();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await registry.open(`bench-${i}`);
    times.push(performance.now() - t0);
  }
  const after = settle();
  const result: Measure = {
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    heapMbPerSandbox: (after.heapUsed - before.heapUsed) / count / MB,
    rssMbPerSandbox: (after.rss - before.rss) / count / MB,
  };
  if (registry.dir) result.fileMb = (await stat(join(registry.dir, 'bench-0.json'))).size / MB;
  for (const id of registry.liveIds()) await registry.remove(id);
  // Its change log's file handle too (left open, it was closed by the garbage collector, with a warning).
  await world.store.close();
  return result;
}

/** End to end over HTTP: the first request of a new id, then a second request of the same id. */
async function measureHttp(
  config: Config,
  newDb: (() => Db) | undefined,
): Promise<{ firstMs: number; warmMs: number }> {
  // Rate limits off: the 41 new ids come from one address.
  const unlimited = { ...config, rateLimit: 0 };
  const { world } = await openDefaultWorld(unlimited);
  const worlds = await createWorldRegistry({ config: unlimited, defaultWorld: world, newDb });
  const log = pino({ level: 'silent' });
  const app = createApp({
    config: unlimited,
    worlds,
    jwtSecret: 'bench-secret-0123456789abcdef0123456789',
    log,
    version: 'bench',
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  // A public read: the health check never brings a sandbox live (docs/security.md, T28).
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/shop/categories`;
  const timed = async (id: string) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { 'x-sandbox-id': id } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`categories answered ${res.status}`);
    return performance.now() - t0;
  };
  await timed('warm-up');
  const first: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < count; i++) {
    first.push(await timed(`http-${i}`));
    warm.push(await timed(`http-${i}`));
  }
  await new Promise((resolve) => server.close(resolve));
  return { firstMs: median(first), warmMs: median(warm) };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const rows: Record<string, unknown>[] = [];
console.log(
  `node ${process.version}, ${os.cpus().length} cpus, load average ${os.loadavg()[0].toFixed(1)}; ` +
    `${count} sandboxes per run; figures are per sandbox`,
);
for (const listings of sizes) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-sandboxes-'));
  try {
    const base = { listings, maxSandboxes: count + 1, sandboxIdleMinutes: 0 };
    const memoryConfig = makeConfig({ ...base, inMemory: true });
    const seed = seedFor(memoryConfig);
    console.log(
      `\n--listings ${listings}: seed image ${fmt(seed.imageMb)} MB, built once in ${fmt(seed.buildMs, 0)} ms; ` +
        `listings from the seeders: ${seed.seeded}, synthetic filler: ${seed.synthetic}`,
    );
    const memory = await measure(memoryConfig, seed.newDb);
    const file = await measure(makeConfig({ ...base, dataFile: join(dir, 'db.json') }), seed.newDb);
    const http = await measureHttp(memoryConfig, seed.newDb);
    for (const [store, m] of [
      ['memory', memory],
      ['file', file],
    ] as const) {
      console.log(
        `  ${store.padEnd(6)} create median ${fmt(m.medianMs)} ms (min ${fmt(m.minMs)}, max ${fmt(m.maxMs)}), heap ${fmt(m.heapMbPerSandbox, 2)} MB, ` +
          `rss ${fmt(m.rssMbPerSandbox, 2)} MB${m.fileMb === undefined ? '' : `, file ${fmt(m.fileMb, 2)} MB`}`,
      );
      rows.push({ listings, seeded: seed.seeded, synthetic: seed.synthetic, store, ...m });
    }
    console.log(
      `  http   first request of a new id ${fmt(http.firstMs)} ms, next request ${fmt(http.warmMs)} ms (medians, memory store)`,
    );
    rows.push({ listings, store: 'memory', via: 'http', ...http });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const replicaCounts = values.replicas
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
if (replicaCounts.length > 0 && nginxMissing()) replicaCounts.length = 0;
if (replicaCounts.length > 0) {
  buildDist((line) => console.log(line));
  console.log('\none replica (node dist/bin.js, memory store, 500 listings): RSS as it holds more sandboxes');
  for (const row of await measureHolding(values.hold.split(',').map(Number))) {
    console.log(`  ${String(row.sandboxes).padStart(4)} sandboxes: rss ${fmt(row.rssMb, 0)} MB`);
    rows.push({ via: 'replica', ...row });
  }
  const jobs = Number(values.jobs);
  console.log(
    `\n${jobs} parallel jobs (one X-Sandbox-Id and one connection each), ${values.duration} s each:`,
  );
  for (const row of await measureThroughput(replicaCounts, jobs, Number(values.duration))) {
    const how = row.viaNginx ? `${row.replicas} replica(s) through nginx` : '1 replica directly';
    console.log(
      `  ${how.padEnd(30)} ${fmt(row.rps, 0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${row.errors ? `, ${row.errors} errors` : ''}`,
    );
    rows.push({ via: 'replicas', ...row });
  }
}
console.log(`\n${JSON.stringify(rows)}`);
