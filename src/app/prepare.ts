import { warmAssistant } from '../api/assistant/assistant.js';
import { validatorsReady } from '../http/validator.js';
import { warmTexts } from '../i18n/warm-up.js';
import type { AppDeps } from './deps.js';

/**
 * What a sandbox does between building its app (`createApp`) and taking requests, in one place:
 * the CLI's server (`startServer`) and the tests' sandbox (`test/helpers/sandbox.ts`) both call
 * it, so tests run the app as it ships. Resolves once the app can answer: the request validator
 * has loaded the contract (a contract it cannot load rejects, and fails the start). `warm()` then
 * builds, in the background and a few ms at a time so requests are never held up for long, what
 * every process builds once: the catalogue's tables (texts, English's word list; each other
 * language's is built by its first search) and the assistant's own tables; it resolves when that
 * is done (once per process: later calls return the same promise). Until then, a request that
 * needs a table builds it itself, in the same slices, and waits for it without blocking others.
 * The scenario files are read by the first listing or activation that needs them, the JSON
 * parser's table of encodings by the first body. Each operation's request check is built by its first request (5-45 ms; see
 * docs/hardening.md for why it is not built here).
 * The server warms at once; the tests' sandbox when a test asks for a warm process.
 * @example const { warm } = await prepareApp(deps); warm(); // listen now
 */
export async function prepareApp(_deps: AppDeps): Promise<{ warm: () => Promise<void> }> {
  await validatorsReady();
  let warmed: Promise<void> | undefined;
  const warm = () => {
    warmed ??= Promise.all([warmTexts(), warmAssistant()]).then(() => undefined);
    return warmed;
  };
  return { warm };
}
