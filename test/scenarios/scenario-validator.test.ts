import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, SCHEMA_FILE, scenarioValidatorSource } from '../../scripts/scenario-validator.js';
import { scenarioPaths, schemaValidator, SHIPPED_SCENARIOS_DIR } from '../../src/scenarios/file.js';

// scenarios/scenario.schema.json is compiled ahead of time (src/generated/scenario-validator.ts):
// compiled at run time, it would hold the process up on the first scenario listing
// (docs/scenarios.md has the figures).

/** The schema compiled now, as src/scenarios/file.ts compiled it before. */
function compiledNow() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const formats = createRequire(import.meta.url)('ajv-formats') as { default?: unknown };
  ((formats.default ?? formats) as (ajv: Ajv) => Ajv)(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
}

const BROKEN: unknown[] = [
  {},
  { name: 'x', description: 1, extra: true },
  { name: 'Bad Name', description: 'd', switches: ['latency=1', { name: 3 }] },
  { name: 'x', description: 'd', overlay: { users: [{ email: 'no-at-sign' }], clock: { set: 'soon' } } },
  { name: 'x', description: 'd', steps: [{ name: 's', request: { method: 'GET' }, repeat: -1 }] },
  { name: 'x', description: 'd', switches: [{ name: 'server.error', scope: { path: 'a'.repeat(201) } }] },
];

describe('the scenario schema compiled ahead of time', () => {
  it('is the schema as it is now (else: npm run gen:scenario-validator)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(scenarioValidatorSource());
  });

  it('judges every document as the schema compiled at run time does, with the same errors', () => {
    const now = compiledNow();
    const ahead = schemaValidator();
    const shipped = scenarioPaths(SHIPPED_SCENARIOS_DIR).map(
      (p) => parse(readFileSync(p, 'utf8')) as unknown,
    );
    for (const doc of [...shipped, ...BROKEN]) {
      expect(ahead(doc), JSON.stringify(doc)).toBe(now(doc));
      expect(ahead.errors ?? null).toEqual(now.errors ?? null);
    }
    expect(BROKEN.every((doc) => !ahead(doc))).toBe(true);
  });
});
