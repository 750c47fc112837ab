import { validatorsReady } from '../contract/validator.js';
import type { AppDeps } from './deps.js';

/**
 * What a sandbox does between building its app (`createApp`) and taking requests, in one place:
 * the CLI's server (`startServer`) and the tests' sandbox (`test/helpers/sandbox.ts`) both call
 * it, so tests run the app as it ships. Resolves once the app can answer: the request validator
 * has loaded the contract (a contract it cannot load rejects, and fails the start). The tables
 * made from static data (the catalogue's texts, each language's word list, the assistant's) are
 * built by their first use, each in one step (docs/hardening.md, Start-up).
 * @example await prepareApp(deps); // listen now
 */
export async function prepareApp(_deps: AppDeps): Promise<void> {
  await validatorsReady();
}
