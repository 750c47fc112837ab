import { performance } from 'node:perf_hooks';
import { operations, templatePattern } from '../../contract/spec.js';
import type { ScenarioFile, Step } from '../file.js';
import { checkMatcher, extract, interpolate, unresolved } from './expect.js';

export interface ReplayOptions {
  /** Base URL of a running sandbox, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** Sent as X-Sandbox-Admin-Token on control calls when the sandbox requires one. */
  adminToken?: string;
  /** Skip a file whose steps call an operation openapi.yaml does not have (yet), instead of failing it. */
  skipUnknownOperations?: boolean;
  /** Milliseconds before a request counts as failed (default 30 s). */
  timeoutMs?: number;
}

export interface StepResult {
  name: string;
  ok: boolean;
  /** What went wrong, one line per failed expectation. */
  failures: string[];
  status: number | null;
  durationMs: number;
}

export interface FileResult {
  name: string;
  description: string;
  /** Why the file was not run, when it was skipped. */
  skipped: string | null;
  /** Setup failure (reset or activation), when the steps never ran. */
  error: string | null;
  steps: StepResult[];
}

interface Response {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The sandbox world a file runs in: its own, once isolation (X-Sandbox-Id) is available. */
export const sandboxIdFor = (name: string) => `replay-${name}`.slice(0, 64);

function routeTable(): { method: string; pattern: RegExp }[] {
  return operations().map((op) => ({
    method: op.method.toUpperCase(),
    pattern: new RegExp(`^${templatePattern(op.path)}$`),
  }));
}

/** The first step whose operation is not in openapi.yaml, as `METHOD /path`; null when all are. */
export function missingOperation(file: ScenarioFile): string | null {
  const table = routeTable();
  for (const step of file.steps ?? []) {
    const path = step.request.path.split('?')[0].replace(/\$\{[^}]+\}/g, 'x');
    if (!table.some((r) => r.method === step.request.method && r.pattern.test(path))) {
      return `${step.request.method} ${step.request.path}`;
    }
  }
  return null;
}

async function send(opts: ReplayOptions, sandboxId: string, request: Step['request']): Promise<Response> {
  const url = new URL(request.path, opts.baseUrl);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { 'X-Sandbox-Id': sandboxId, ...(request.headers ?? {}) };
  if (opts.adminToken && request.path.startsWith('/__sandbox'))
    headers['X-Sandbox-Admin-Token'] = opts.adminToken;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: kept as text for the expectations.
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

function check(step: Step, res: Response): string[] {
  const failures: string[] = [];
  const expect = step.expect ?? {};
  if (expect.networkError) failures.push(`expected the connection to drop, got ${res.status}`);
  const statuses = expect.status === undefined ? [] : [expect.status].flat();
  if (statuses.length > 0 && !statuses.includes(res.status)) {
    failures.push(
      `status ${res.status}, expected ${statuses.join(' or ')} (body ${JSON.stringify(res.body).slice(0, 200)})`,
    );
  }
  for (const [name, matcher] of Object.entries(expect.headers ?? {})) {
    const failure = checkMatcher(res.headers[name.toLowerCase()], matcher);
    if (failure) failures.push(`header ${name} ${failure}`);
  }
  for (const [path, matcher] of Object.entries(expect.body ?? {})) {
    const failure = checkMatcher(extract(res, `body.${path}`), matcher);
    if (failure) failures.push(`body.${path} ${failure}`);
  }
  return failures;
}

/** Runs one step (every repetition); saves variables from the last response. */
async function runStep(
  opts: ReplayOptions,
  sandboxId: string,
  step: Step,
  vars: Record<string, unknown>,
): Promise<StepResult> {
  const started = performance.now();
  const request = interpolate(step.request, vars) as Step['request'];
  // Expectations may name saved values too (`id: '${orderId}'`).
  const expected: Step = { ...step, expect: interpolate(step.expect, vars) as Step['expect'] };
  const missing = unresolved(request);
  const result = (failures: string[], status: number | null): StepResult => ({
    name: step.name,
    ok: failures.length === 0,
    failures,
    status,
    durationMs: Math.round(performance.now() - started),
  });
  if (missing.length > 0) return result([`uses \${${missing[0]}}, which no earlier step saved`], null);
  let last: Response | null = null;
  for (let i = 0; i < (step.repeat ?? 1); i++) {
    try {
      last = await send(opts, sandboxId, request);
    } catch (err) {
      if (step.expect?.networkError) continue;
      return result([`request failed: ${(err as Error).cause ?? (err as Error).message}`], null);
    }
    const failures = check(expected, last);
    if (failures.length > 0)
      return result(step.repeat ? [`repetition ${i + 1}: ${failures.join('; ')}`] : failures, last.status);
  }
  for (const [name, spec] of Object.entries(step.save ?? {})) if (last) vars[name] = extract(last, spec);
  return result([], last?.status ?? null);
}

/**
 * Replays one scenario file against a running sandbox: resets the file's world, activates the file
 * (overlay and switches, sent whole so the server needs no copy), then runs the steps in order and
 * stops at the first failed one (later steps usually depend on it).
 */
export async function replayFile(file: ScenarioFile, opts: ReplayOptions): Promise<FileResult> {
  const out: FileResult = {
    name: file.name,
    description: file.description,
    skipped: null,
    error: null,
    steps: [],
  };
  if (opts.skipUnknownOperations) {
    const missing = missingOperation(file);
    if (missing) return { ...out, skipped: `${missing} is not in openapi.yaml yet` };
  }
  const sandboxId = sandboxIdFor(file.name);
  try {
    const reset = await send(opts, sandboxId, { method: 'POST', path: '/__sandbox/reset' });
    if (reset.status !== 200) throw new Error(`reset answered ${reset.status} ${JSON.stringify(reset.body)}`);
    const activated = await send(opts, sandboxId, {
      method: 'POST',
      path: `/__sandbox/scenarios/${file.name}/activate`,
      body: { document: file },
    });
    if (activated.status !== 200)
      throw new Error(`activate answered ${activated.status} ${JSON.stringify(activated.body)}`);
  } catch (err) {
    return { ...out, error: (err as Error).message };
  }
  const vars: Record<string, unknown> = {};
  for (const step of file.steps ?? []) {
    const result = await runStep(opts, sandboxId, step, vars);
    out.steps.push(result);
    if (!result.ok) break;
  }
  return out;
}

/** True when the file ran and every step met its expectations (a skipped file is not a failure). */
export function filePassed(r: FileResult): boolean {
  return r.skipped !== null || (r.error === null && r.steps.every((s) => s.ok));
}
