import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type * as Yaml from 'yaml';
import type { CreateListingBody } from '../api/listings/create.js';
import type { Body } from '../contract/types.js';
import { validate as compiledSchema } from '../generated/scenario-validator.js';
import { pathPatternProblem } from './path-pattern.js';

/** The scenarios/ directory shipped with the package (beside src/ or dist/). */
export const SHIPPED_SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export interface OverlayUser {
  email: string;
  password?: string;
  fullName?: string;
  balance_cents?: number;
  api_key?: string;
}

/** A listing a scenario file adds: the body of POST /api/shop/listings (images aside), with its id and seller. */
export type OverlayListing = Partial<Omit<CreateListingBody, 'images' | 'title'>> & {
  id: string;
  seller: string;
  title: string;
};

/** The state a scenario file sets; `clock` takes what POST /__sandbox/clock takes. */
// Not the contract's type: activateScenarioFile's `overlay` has these names but holds the counts of what was set.
export interface Overlay {
  clock?: Body<'setClock'>;
  users?: OverlayUser[];
  wallets?: { email: string; balance_cents: number }[];
  plans?: { email: string; plan_id: string; billing_cycle?: 'monthly' | 'yearly' }[];
  listings?: OverlayListing[];
}

/** A switch a scenario file turns on: a name (`latency=300`), or a sticky switch as POST /__sandbox/scenarios takes it. */
export type FileSwitch = string | Body<'addScenario'>;

/** A matcher: a literal (deep equality) or an object of `$`-operators. */
export type Matcher = unknown;

export interface Step {
  name: string;
  request: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    query?: Record<string, string | number | boolean>;
    body?: unknown;
  };
  repeat?: number;
  expect?: {
    status?: number | number[];
    headers?: Record<string, Matcher>;
    body?: Record<string, Matcher>;
    networkError?: boolean;
  };
  save?: Record<string, string>;
}

export interface ScenarioFile {
  name: string;
  description: string;
  overlay?: Overlay;
  switches?: FileSwitch[];
  steps?: Step[];
}

/** A scenario file that cannot be read or breaks the schema; the message says where. */
export class ScenarioFileError extends Error {}

// yaml is loaded on first use (a scenario file read), not at start-up.
const load = createRequire(import.meta.url);

/** The YAML parser, loaded on first use. */
export function yamlParser(): typeof Yaml {
  return load('yaml') as typeof Yaml;
}

/**
 * scenario.schema.json as a validator, compiled ahead of time into src/generated/ by
 * scripts/scenario-validator.ts with ajv's options of choice here (`allErrors`, not `strict`, the
 * formats of ajv-formats): compiling it at run time held the process for 30-90 ms.
 */
export function schemaValidator(): ValidateFunction {
  return compiledSchema as unknown as ValidateFunction;
}

/** The path patterns of a valid document's switches that path-pattern.ts refuses, each where it is. */
function patternProblems(file: ScenarioFile): string[] {
  return (file.switches ?? []).flatMap((s, i) => {
    const problem = typeof s === 'string' || !s.scope?.path ? undefined : pathPatternProblem(s.scope.path);
    return problem === undefined ? [] : [`/switches/${i}/scope/path: ${problem}`];
  });
}

/**
 * Checks a parsed document against scenario.schema.json, and its switches' path patterns;
 * throws with every problem listed.
 */
export function validateScenario(doc: unknown, source: string): ScenarioFile {
  const validate = schemaValidator();
  if (!validate(doc)) {
    const problems = (validate.errors ?? [])
      .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    throw new ScenarioFileError(`${source}: ${[...new Set(problems)].join('; ')}`);
  }
  const refused = patternProblems(doc as ScenarioFile);
  if (refused.length > 0) throw new ScenarioFileError(`${source}: ${refused.join('; ')}`);
  return doc as ScenarioFile;
}

/** What a file's text gave: the file, or the message it was refused with. */
interface Outcome {
  text: string;
  file?: ScenarioFile;
  error?: string;
}

/**
 * Files already read, by path, with the text they were read from: a file whose text is unchanged
 * is not parsed and validated again (the YAML parse and the schema check cost some 5 ms a file;
 * listing the scenarios directory read every file on every call). Keyed by the text itself, not
 * by mtime, so a file rewritten within the file system's timestamp granularity is still read anew.
 */
const outcomes = new Map<string, Outcome>();
/** Paths remembered at most (a scenarios directory holds a few dozen; replay may name others). */
const MAX_OUTCOMES = 512;

function judge(path: string, text: string): Omit<Outcome, 'text'> {
  let doc: unknown;
  try {
    doc = yamlParser().parse(text);
  } catch (err) {
    return { error: `${path}: ${(err as Error).message.split('\n')[0]}` };
  }
  try {
    const file = validateScenario(doc, path);
    const expected = basename(path).replace(/\.ya?ml$/, '');
    if (file.name !== expected)
      return { error: `${path}: name "${file.name}" must equal the file name "${expected}"` };
    return { file };
  } catch (err) {
    if (err instanceof ScenarioFileError) return { error: err.message };
    throw err;
  }
}

/**
 * Reads, parses and validates one file; its `name` must equal the file name. A file read before
 * with the same text gives a copy of what it gave then (the caller may change its copy).
 */
export function loadScenarioFile(path: string): ScenarioFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioFileError(`${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  let outcome = outcomes.get(path);
  if (outcome?.text !== text) {
    outcome = { text, ...judge(path, text) };
    if (outcomes.size >= MAX_OUTCOMES) outcomes.clear();
    outcomes.set(path, outcome);
  }
  if (outcome.error !== undefined) throw new ScenarioFileError(outcome.error);
  return structuredClone(outcome.file as ScenarioFile);
}

/** The `.yaml` files of a directory, sorted; or the file itself when given a file. */
export function scenarioPaths(fileOrDir: string): string[] {
  if (!statSync(fileOrDir).isDirectory()) return [fileOrDir];
  return readdirSync(fileOrDir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(fileOrDir, f));
}

/** The named file in a scenarios directory, or undefined when there is none. */
export function findScenarioFile(dir: string, name: string): ScenarioFile | undefined {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) return undefined;
  for (const ext of ['.yaml', '.yml']) {
    const path = join(dir, name + ext);
    try {
      statSync(path);
    } catch {
      continue;
    }
    return loadScenarioFile(path);
  }
  return undefined;
}
