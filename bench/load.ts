import autocannon from 'autocannon';

/** One measured load: requests per second and latency percentiles (ms). */
export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Responses outside 2xx, and connection errors/timeouts. */
  non2xx: number;
  errors: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Bodies to rotate through, one per request (checkout over many listings). */
  bodies?: string[];
  /** Paths (with query) to rotate through, one per request, replacing the URL's path. */
  paths?: string[];
}

/** Runs autocannon against one URL. */
export async function load(opts: LoadOptions): Promise<Load> {
  let next = 0;
  const headers = {
    ...(opts.body || opts.bodies ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationS,
    method: opts.method ?? 'GET',
    headers,
    body: opts.body,
    timeout: 30,
    requests:
      opts.bodies || opts.paths
        ? [
            {
              setupRequest: (req) => {
                const n = next++;
                return {
                  ...req,
                  ...(opts.bodies ? { body: opts.bodies[n % opts.bodies.length] } : {}),
                  ...(opts.paths ? { path: opts.paths[n % opts.paths.length] } : {}),
                };
              },
            },
          ]
        : undefined,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/** A JSON request outside the measured load (setup, probes). */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; json: unknown }> {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON; the caller looks at status and text
  }
  return { status: res.status, text, json };
}
