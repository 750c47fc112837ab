/**
 * Scale-out figures for docs/scaling.md (run by `npm run bench:sandboxes`): how many sandboxes one
 * replica holds (its RSS as live sandboxes are added) and how many requests a second 1, 2 and 3
 * replicas serve through nginx with deploy/compose/nginx.conf (test/helpers/replicas.ts), each
 * connection a CI job with its own X-Sandbox-Id.
 */
import autocannon, { type Request } from 'autocannon';
import { readFileSync } from 'node:fs';
import { startCluster, type Cluster } from '../test/helpers/replicas.js';

const BUYER_KEY = 'mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f';
/** Rate limits off: the load is many jobs, not one client over its limit. */
const FLAGS = ['--rate-limit', '0', '--rate-limit-api-key', '0', '--max-sandboxes', '400'];

export interface HoldRow {
  sandboxes: number;
  rssMb: number;
}

export interface ThroughputRow {
  replicas: number;
  viaNginx: boolean;
  jobs: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** One replica's RSS with 0 and then `steps` live sandboxes (each made by a first request). */
export async function measureHolding(steps: number[]): Promise<HoldRow[]> {
  const cluster = await startCluster(1, { flags: FLAGS });
  const [replica] = cluster.replicas;
  try {
    const rows: HoldRow[] = [{ sandboxes: 0, rssMb: rssMb(replica.child.pid!) }];
    let made = 0;
    for (const target of steps) {
      for (; made < target; made++) {
        const res = await fetch(`${replica.url}/api/wallet/balance`, {
          headers: { 'X-Sandbox-Id': `hold-${made}`, Authorization: `Bearer ${BUYER_KEY}` },
        });
        if (!res.ok) throw new Error(`sandbox hold-${made}: ${res.status} ${await res.text()}`);
      }
      rows.push({ sandboxes: target, rssMb: rssMb(replica.child.pid!) });
    }
    return rows;
  } finally {
    await cluster.stop();
  }
}

/** A job's requests: a page of listings, its wallet, who it is; all with an API key (no fast path). */
function jobRequests(jobs: number): Request[] {
  let next = 0;
  const headers = (ctx: Record<string, unknown>) => {
    ctx.id ??= `job-${next++ % jobs}`;
    return { 'x-sandbox-id': ctx.id as string, authorization: `Bearer ${BUYER_KEY}` };
  };
  const get = (path: (page: number) => string): Request => ({
    method: 'GET',
    setupRequest: (req, ctx) => {
      const c = ctx as Record<string, number>;
      c.page = ((c.page ?? 0) % 5) + 1;
      return { ...req, path: path(c.page), headers: headers(ctx as Record<string, unknown>) };
    },
  });
  return [
    get((p) => `/api/shop/listings?limit=12&page=${p}`),
    get(() => '/api/wallet/balance'),
    get(() => '/api/auth/me'),
  ];
}

async function load(url: string, jobs: number, durationS: number) {
  const result = await autocannon({
    url,
    connections: jobs,
    duration: durationS,
    requests: jobRequests(jobs),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * Warms every job's sandbox on its replica, so the load measures requests, not creations; and
 * builds, through each job's replica, what a process builds once by its first search and
 * question (the catalogue's word lists, the assistant's tables), so the load measures requests,
 * not a start.
 */
async function warm(base: string, jobs: number): Promise<void> {
  for (let i = 0; i < jobs; i++) {
    const headers = { 'X-Sandbox-Id': `job-${i}`, Authorization: `Bearer ${BUYER_KEY}` };
    await fetch(`${base}/api/wallet/balance`, { headers }).then((r) => r.arrayBuffer());
    await fetch(`${base}/api/shop/listings?q=lamp`, { headers }).then((r) => r.arrayBuffer());
    await fetch(`${base}/api/shop/assistant`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'a lamp under 50 dollars' }),
    }).then((r) => r.arrayBuffer());
  }
}

/** Requests a second with `jobs` parallel jobs: one replica directly, then 1..N replicas through nginx. */
export async function measureThroughput(
  counts: number[],
  jobs: number,
  durationS: number,
): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const replicas of counts) {
    const cluster: Cluster = await startCluster(replicas, { flags: FLAGS });
    try {
      if (replicas === 1) {
        await warm(cluster.replicas[0].url, jobs);
        rows.push({
          replicas,
          viaNginx: false,
          jobs,
          ...(await load(cluster.replicas[0].url, jobs, durationS)),
        });
      }
      await warm(cluster.nginx.url, jobs);
      rows.push({ replicas, viaNginx: true, jobs, ...(await load(cluster.nginx.url, jobs, durationS)) });
    } finally {
      await cluster.stop();
    }
  }
  return rows;
}
