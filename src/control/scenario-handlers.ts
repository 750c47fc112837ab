import { basename } from 'node:path';
import type { AppDeps } from '../app/deps.js';
import { ApiError } from '../contract/errors.js';
import { activateScenario, namedScenario, scenariosDir } from '../scenarios/activate.js';
import { DEFINITIONS, parseSwitch } from '../scenarios/definitions.js';
import { loadScenarioFile, scenarioPaths, validateScenario, type ScenarioFile } from '../scenarios/file.js';
import { checkPathPattern } from '../scenarios/path-pattern.js';
import { addSticky, listSticky, removeSticky } from '../scenarios/state.js';
import type { Handlers } from '../contract/handler.js';

/** The files of the scenarios directory, each with its description, or the reason it is unusable. */
function fileList(dir: string) {
  let paths: string[];
  try {
    paths = scenarioPaths(dir);
  } catch {
    return [];
  }
  return paths.map((path) => {
    try {
      const f = loadScenarioFile(path);
      return { name: f.name, description: f.description, steps: f.steps?.length ?? 0, error: null };
    } catch (err) {
      return {
        name: basename(path).replace(/\.ya?ml$/, ''),
        description: '',
        steps: 0,
        error: (err as Error).message,
      };
    }
  });
}

export function scenarioHandlers(deps: AppDeps) {
  return {
    listScenarios: (req, res) => {
      res.json({ scenarios: listSticky(req.world) });
    },
    addScenario: (req, res) => {
      const { body } = req;
      const sw = parseSwitch(body.name, body.param, 'body.name');
      checkPathPattern(body.scope?.path, 'body.scope.path');
      res.status(201).json(addSticky(req.world, sw, { scope: body.scope, count: body.count, source: 'api' }));
    },
    clearScenarios: (req, res) => {
      res.json({ success: true, removed: removeSticky(req.world) });
    },
    removeScenario: (req, res) => {
      const { id } = req.params;
      if (removeSticky(req.world, id) === 0) throw new ApiError(404, `Scenario switch not found: ${id}`);
      res.json({ success: true, removed: 1 });
    },
    listScenarioDefinitions: (_req, res) => {
      res.json({ scenarios: DEFINITIONS, files: fileList(scenariosDir(deps.config)) });
    },
    activateScenarioFile: (req, res) => {
      const { name } = req.params;
      const sent = req.body?.document;
      let file: ScenarioFile;
      if (sent === undefined) file = namedScenario(deps.config, name);
      else {
        try {
          file = validateScenario(sent, 'body.document');
        } catch (err) {
          throw new ApiError(400, (err as Error).message);
        }
        if (file.name !== name) throw new ApiError(400, `body.document.name must be "${name}"`);
      }
      res.json(activateScenario(req.world, file));
    },
  } satisfies Handlers;
}
