import { warmAssistant } from '../api/assistant/assistant.js';
import { validatorsReady } from '../http/validator.js';
import { warmTexts } from '../i18n/warm-up.js';
import { scenariosDir } from '../scenarios/activate.js';
import { warmScenarioFiles } from '../scenarios/warm-up.js';
import type { AppDeps } from './deps.js';

/**
 * What a sandbox does between building its app (`createApp`) and taking requests, in one place:
 * the CLI's server (`startServer`) and the tests' sandbox (`test/helpers/sandbox.ts`) both call
 * it, so tests run the app as it ships. Resolves once the app can answer: the request validator
 * has loaded the contract (a contract it cannot load rejects, and fails the start). Then, in the
 * background and a few ms at a time so requests are never held up for long, what every process
 * builds once: the catalogue's tables (texts, the word lists of every language), the assistant's
 * own tables and the scenario files of the scenarios directory; `warmed` resolves when that is done.
 * @example const { warmed } = await prepareApp(deps); // listen now; `await warmed` for a warm process
 */
export async function prepareApp(deps: AppDeps): Promise<{ warmed: Promise<void> }> {
  await validatorsReady();
  // The tables first: a search or a question waits for them, a scenario listing does not.
  const texts = warmTexts();
  const assistant = warmAssistant();
  const scenarios = warmScenarioFiles(scenariosDir(deps.config));
  return { warmed: Promise.all([texts, assistant, scenarios]).then(() => undefined) };
}
