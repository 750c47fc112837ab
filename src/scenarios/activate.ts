import { existsSync } from 'node:fs';
import type { Config } from '../process/config.js';
import type { Reply } from '../contract/types.js';
import { ApiError } from '../contract/errors.js';
import type { World } from '../world/world.js';
import { parseSwitch, parseSwitchList, scenarioDef } from './definitions.js';
import {
  findScenarioFile,
  loadScenarioFile,
  ScenarioFileError,
  SHIPPED_SCENARIOS_DIR,
  type FileSwitch,
  type ScenarioFile,
} from './file.js';
import { applyOverlay } from './overlay.js';
import { addSticky, checkStickyRoom, MAX_STICKY, scenarioState } from './state.js';

/** What activating a scenario file did: its overlay's counts and the switches it added. */
type Activation = Reply<'activateScenarioFile'>;

export function scenariosDir(config: Config): string {
  return config.scenariosDir || SHIPPED_SCENARIOS_DIR;
}

function checkSwitch(s: FileSwitch, i: number) {
  const where = `switches[${i}]`;
  return typeof s === 'string' ? parseSwitch(s, undefined, where) : parseSwitch(s.name, s.param, where);
}

/** Applies a file's overlay and switches to a world. Every switch is checked before anything changes. */
export function activateScenario(world: World, file: ScenarioFile): Activation {
  const switches = (file.switches ?? []).map((s, i) => ({ sw: checkSwitch(s, i), spec: s }));
  checkStickyRoom(world, switches.length);
  const overlay = applyOverlay(world, file.overlay ?? {});
  const added = switches.map(({ sw, spec }) =>
    addSticky(world, sw, {
      scope: typeof spec === 'string' ? undefined : spec.scope,
      count: typeof spec === 'string' ? null : (spec.count ?? null),
      source: `file:${file.name}`,
    }),
  );
  return { name: file.name, overlay, switches: added };
}

/** What `--scenario` names: named switches (`latency=300`) or a scenario file. */
export type StartupScenario =
  { kind: 'switches'; text: string } | { kind: 'file'; file: ScenarioFile } | null;

/**
 * Resolves `--scenario` once at start-up, so a typo stops the sandbox instead of surfacing on the
 * first request: a switch list, a path to a .yaml file, or a file name in the scenarios dir.
 */
export function resolveStartupScenario(config: Config): StartupScenario {
  const text = config.scenario.trim();
  if (!text) return null;
  const first = text.split(',')[0].split('=')[0].trim();
  if (scenarioDef(first)) {
    let count: number;
    try {
      count = parseSwitchList(text, '--scenario').length;
    } catch (err) {
      throw new ScenarioFileError((err as Error).message);
    }
    if (count > MAX_STICKY) throw new ScenarioFileError(`--scenario: more than ${MAX_STICKY} switches`);
    return { kind: 'switches', text };
  }
  const file =
    /\.ya?ml$/.test(text) && existsSync(text)
      ? loadScenarioFile(text)
      : findScenarioFile(scenariosDir(config), text);
  if (!file)
    throw new ScenarioFileError(
      `--scenario: "${text}" is neither a scenario name nor a file in ${scenariosDir(config)}`,
    );
  if ((file.switches?.length ?? 0) > MAX_STICKY)
    throw new ScenarioFileError(`--scenario: "${text}" has more than ${MAX_STICKY} switches`);
  return { kind: 'file', file };
}

/** Applies the start-up scenario to a world the first time it is used, and again after each reset. */
export function ensureStartupScenario(world: World, startup: StartupScenario): void {
  const state = scenarioState(world);
  if (state.startupApplied) return;
  state.startupApplied = true;
  if (!startup) return;
  if (startup.kind === 'file') {
    activateScenario(world, startup.file);
    // Durable with the next flush; nobody waits on it, so a failed write only shows in the log.
    world.store.flush().catch(() => undefined);
    return;
  }
  for (const sw of parseSwitchList(startup.text, '--scenario')) addSticky(world, sw, { source: 'startup' });
}

/** Finds a named file for the activate call; 404 when there is none. */
export function namedScenario(config: Config, name: string): ScenarioFile {
  let file: ScenarioFile | undefined;
  try {
    file = findScenarioFile(scenariosDir(config), name);
  } catch (err) {
    if (err instanceof ScenarioFileError) throw new ApiError(400, err.message);
    throw err;
  }
  if (!file) throw new ApiError(404, `Scenario file not found: ${name}`);
  return file;
}
