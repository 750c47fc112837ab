import { existsSync } from 'node:fs';
import { operations } from '../../src/contract/spec.js';

const present = new Set(operations().map((op) => `${op.method.toUpperCase()} ${op.path}`));

/** The operations of `needs` ("METHOD /path") that openapi.yaml does not have yet. */
export function absent(...needs: string[]): string[] {
  return needs.filter((n) => !present.has(n));
}

/**
 * Every area is merged now: an operation a test needs that is missing from openapi.yaml is a
 * regression, so this throws (failing the file) instead of skipping. Returns undefined so the
 * `it.skipIf(skipReason(...))` call sites read the same.
 */
export function skipReason(what: string, ...needs: string[]): string | undefined {
  const missing = absent(...needs);
  if (missing.length > 0)
    throw new Error(`"${what}" cannot be tested: openapi.yaml has no ${missing.join(', ')}`);
  return undefined;
}

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when Chromium is installed. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `SKIPPED dashboard e2e: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`;
  console.log(reason);
  return reason;
}
