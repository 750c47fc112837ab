/**
 * Cost of one isolated sandbox (issue 7): time to create it and the memory it holds, in memory and
 * file-backed, at each requested catalog size.
 *
 *   npm run bench:sandboxes -- [--listings 500,10000] [--count 20] [--no-synthetic]
 *
 * A new sandbox is exactly what a first request with a new X-Sandbox-Id gets: the registry's
 * `open(id)`, i.e. a JSON.parse of the seed image cached per process (+ a file write when
 * file-backed). When the seeders produce fewer listings than asked (the catalog seeder is not in
 * this tree yet), synthetic listings shaped like ListingRecord fill the gap, and the report says so.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { makeConfig, type Config } from '../src/config.js';
import { freshDb } from '../src/seed/seed.js';
import type { Db } from '../src/store/types.js';
import { openDefaultWorld, seedOptionsOf } from '../src/world.js';
import { createWorldRegistry } from '../src/worlds/registry.js';
import { addSyntheticListings } from './synthetic-listings.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '500,10000' },
    count: { type: 'string', default: '20' },
    'no-synthetic': { type: 'boolean', default: false },
  },
});
const sizes = values.listings.split(',').map(Number);
const count = Number(values.count);
const MB = 1024 * 1024;

interface Measure {
  msPerSandbox: number;
  maxMs: number;
  heapMbPerSandbox: number;
  rssMbPerSandbox: number;
  fileMb?: number;
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
  const base = freshDb(seedOptionsOf(config));
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
    msPerSandbox: times.reduce((a, b) => a + b, 0) / count,
    maxMs: Math.max(...times),
    heapMbPerSandbox: (after.heapUsed - before.heapUsed) / count / MB,
    rssMbPerSandbox: (after.rss - before.rss) / count / MB,
  };
  if (registry.dir) result.fileMb = (await stat(join(registry.dir, 'bench-0.json'))).size / MB;
  for (const id of registry.liveIds()) await registry.remove(id);
  return result;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const rows: Record<string, unknown>[] = [];
console.log(`node ${process.version}, ${count} sandboxes per run; figures are per sandbox`);
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
    for (const [store, m] of [
      ['memory', memory],
      ['file', file],
    ] as const) {
      console.log(
        `  ${store.padEnd(6)} create ${fmt(m.msPerSandbox)} ms (max ${fmt(m.maxMs)}), heap ${fmt(m.heapMbPerSandbox, 2)} MB, ` +
          `rss ${fmt(m.rssMbPerSandbox, 2)} MB${m.fileMb === undefined ? '' : `, file ${fmt(m.fileMb, 2)} MB`}`,
      );
      rows.push({ listings, seeded: seed.seeded, synthetic: seed.synthetic, store, ...m });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
console.log(`\n${JSON.stringify(rows)}`);
