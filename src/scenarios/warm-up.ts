import { SlicedTable, type Steps } from '../i18n/sliced-table.js';
import { loadScenarioFile, scenarioPaths, schemaValidator, yamlParser } from './file.js';

/**
 * Reading a scenarios directory as steps: the schema's validator, the YAML parser, then each file,
 * one per step (loadScenarioFile keeps what each gave, by its text).
 */
function* readingSteps(dir: string): Steps<true> {
  schemaValidator();
  yield;
  yamlParser();
  yield;
  let paths: string[] = [];
  try {
    paths = scenarioPaths(dir);
  } catch {
    // No such directory: listing it gives no files, and there is nothing to read ahead.
  }
  for (const path of paths) {
    try {
      loadScenarioFile(path);
    } catch {
      // A file that cannot be used is listed with its error: that is kept too.
    }
    yield;
  }
  return true;
}

const readings = new Map<string, SlicedTable<true>>();

/**
 * Reads the scenario files of `dir` ahead, in the background a step at a time (sliced-table.ts),
 * so the first listing of the catalogue or activation of a file (a YAML parse per file and the
 * schema's compile: some 150-300 ms at once) finds them read. Once per directory and process;
 * a file changed later is read again when next used.
 */
export function warmScenarioFiles(dir: string): Promise<void> {
  let reading = readings.get(dir);
  if (!reading) {
    reading = new SlicedTable(() => readingSteps(dir));
    readings.set(dir, reading);
  }
  return reading.ready() ?? Promise.resolve();
}
