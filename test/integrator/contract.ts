import { existsSync } from 'node:fs';
import { operations } from '../../src/http/spec.js';

const present = new Set(operations().map((op) => `${op.method.toUpperCase()} ${op.path}`));

/** The operations of `needs` ("METHOD /path") that openapi.yaml does not have yet. */
export function absent(...needs: string[]): string[] {
  return needs.filter((n) => !present.has(n));
}

/**
 * For tests of parts that other areas implement: a reason to skip (printed, so a skip is never
 * silent) when their operations are not in this build's contract, else undefined.
 */
export function skipReason(what: string, ...needs: string[]): string | undefined {
  const missing = absent(...needs);
  if (missing.length === 0) return undefined;
  const reason = `SKIPPED "${what}": openapi.yaml has no ${missing.join(', ')} in this build`;
  console.log(reason);
  return reason;
}

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when Chromium is installed. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `SKIPPED dashboard e2e: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`;
  console.log(reason);
  return reason;
}
