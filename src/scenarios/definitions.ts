import type { Schema } from '../contract/types.js';
import { ApiError } from '../contract/errors.js';

/**
 * One scenario as GET /__sandbox/scenarios/catalog lists it. `kind`: `generic` ones are applied
 * by the engine, `flag` ones are read by the module they concern; `param.unit` says what the
 * number means (`ms`, `seconds`, `hours`).
 */
export type ScenarioDef = Schema<'ScenarioDef'>;

/** One switched-on scenario: a scenario name and its parameter (default filled in). */
export interface Switch {
  name: string;
  param: number | null;
}

/** Every scenario, listed once; docs/scenarios.md describes each entry. */
export const DEFINITIONS: ScenarioDef[] = [
  {
    name: 'wallet.insufficient',
    kind: 'flag',
    param: null,
    description: 'Wallet payments take the provider redirect whatever the balance.',
    affects: 'checkout, subscribe and featuring with credit_wallet',
  },
  {
    name: 'auth.token-expired',
    kind: 'generic',
    param: null,
    description: 'The credential is treated as expired: 401 Invalid or expired token.',
    affects: 'operations that require a credential, and optional-credential operations when one is sent',
  },
  {
    name: 'ratelimit.exceeded',
    kind: 'generic',
    param: { unit: 'seconds', required: false, min: 1, max: 3600, default: 60 },
    description: '429 Too many requests with Retry-After (the parameter, default 60) as the limiter answers.',
    affects: 'every public API operation',
  },
  {
    name: 'server.error',
    kind: 'generic',
    param: null,
    description: '500 Internal server error; the handler does not run.',
    affects: 'every public API operation',
  },
  {
    name: 'server.unavailable',
    kind: 'generic',
    param: { unit: 'seconds', required: false, min: 1, max: 3600, default: 5 },
    description:
      '503 Service unavailable with Retry-After (the parameter, default 5); the handler does not run.',
    affects: 'every public API operation',
  },
  {
    name: 'latency',
    kind: 'generic',
    param: { unit: 'ms', required: true, min: 0, max: 60_000 },
    description: 'Waits the given milliseconds before the handler runs.',
    affects: 'every public API operation',
  },
  {
    name: 'listing.not-found',
    kind: 'generic',
    param: null,
    description: '404 Listing not found.',
    affects:
      'operations naming a listing: a {id} under /listings/ or /cart/, or listing_id/listingId/cartItems in the body',
  },
  {
    name: 'provider.approve',
    kind: 'flag',
    param: null,
    description: 'A provider payment created by the request approves itself: the order or plan completes.',
    affects: 'checkout, subscribe and featuring that end in a provider redirect',
  },
  {
    name: 'provider.cancel',
    kind: 'flag',
    param: null,
    description: 'A provider payment created by the request cancels itself: the order is cancelled.',
    affects: 'checkout, subscribe and featuring that end in a provider redirect',
  },
  {
    name: 'rates.stale',
    kind: 'flag',
    param: { unit: 'hours', required: false, min: 1, max: 8760, default: 6 },
    description: 'Exchange rates report an updated_at this many hours old (default 6).',
    affects: 'GET /api/wallet/exchange-rates',
  },
  {
    name: 'network.reset',
    kind: 'generic',
    param: null,
    description: 'The connection is dropped before the handler runs; no response is sent.',
    affects: 'every public API operation',
  },
  {
    name: 'response.truncated',
    kind: 'generic',
    param: null,
    description:
      'The handler runs (its effects happen), then the body is cut in half under a full Content-Length and the connection closed.',
    affects: 'every public API operation',
  },
];

const BY_NAME = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** `wallet.insufficient, latency=<ms>, …`: the valid spellings, for error messages. */
export function validNames(): string {
  return DEFINITIONS.map((d) => {
    if (!d.param) return d.name;
    return d.param.required ? `${d.name}=<${d.param.unit}>` : `${d.name}[=<${d.param.unit}>]`;
  }).join(', ');
}

export function scenarioDef(name: string): ScenarioDef | undefined {
  return BY_NAME.get(name);
}

/**
 * Checks one switch: a known name and a parameter it accepts. Throws 400 listing the valid ones.
 * @example parseSwitch('latency=800') // { name: 'latency', param: 800 }
 */
export function parseSwitch(text: string, param?: number | string | null, where = 'scenario'): Switch {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  const raw = eq < 0 ? param : text.slice(eq + 1).trim();
  const def = BY_NAME.get(name);
  if (!def) throw new ApiError(400, `${where}: unknown scenario "${name}"; valid: ${validNames()}`);
  if (raw === undefined || raw === null || raw === '') {
    if (def.param?.required)
      throw new ApiError(400, `${where}: ${name} needs a parameter: ${name}=<${def.param.unit}>`);
    return { name, param: def.param?.default ?? null };
  }
  if (!def.param) throw new ApiError(400, `${where}: ${name} takes no parameter`);
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < def.param.min || n > def.param.max) {
    throw new ApiError(
      400,
      `${where}: ${name} takes a whole number of ${def.param.unit} from ${def.param.min} to ${def.param.max}, got "${raw}"`,
    );
  }
  return { name, param: n };
}

/** Parses the `X-Sandbox-Scenario` header: comma-separated switches with optional `=param`. */
export function parseSwitchList(header: string, where = 'X-Sandbox-Scenario'): Switch[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => parseSwitch(part, undefined, where));
}

/** `latency=800` or `server.error`: how a switch is shown in headers and lists. */
export function formatSwitch(s: Switch): string {
  return s.param === null ? s.name : `${s.name}=${s.param}`;
}
