import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeConfig } from '../process/config.js';
import { loadScenarioFile, scenarioPaths, type ScenarioFile } from '../scenarios/file.js';
import { toJUnit } from '../scenarios/replay/junit.js';
import { filePassed, replayFile, type FileResult } from '../scenarios/replay/runner.js';
import { startServer } from '../process/server.js';

export const REPLAY_USAGE = 'Usage: marketplace-sandbox replay <file|dir> [--url URL] [--junit FILE]';

type Write = (line: string) => void;

function printResult(r: FileResult, write: Write): void {
  if (r.skipped !== null) return write(`- ${r.name}: skipped (${r.skipped})`);
  if (r.error !== null) return write(`✗ ${r.name}: ${r.error}`);
  write(`${filePassed(r) ? '✓' : '✗'} ${r.name}`);
  for (const s of r.steps) {
    write(`    ${s.ok ? '✓' : '✗'} ${s.name} (${s.status ?? 'no response'}, ${s.durationMs} ms)`);
    for (const f of s.failures) write(`        ${f}`);
  }
}

/** Loads every file first, so a broken file fails the run before anything is sent. */
function loadAll(target: string): ScenarioFile[] {
  return scenarioPaths(target).map((path) => loadScenarioFile(path));
}

/**
 * `marketplace-sandbox replay <file|dir> [--url URL] [--junit FILE]`: runs scenario steps against a
 * running sandbox, or an in-process in-memory one when no URL is given. Returns the exit code:
 * 0 when every expectation held, 1 when one failed, 2 on bad usage or an unreadable file.
 */
export async function runReplay(
  argv: string[],
  write: Write = (l) => process.stdout.write(l + '\n'),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, junit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    write(`replay: ${(err as Error).message.split('\n')[0]}\n${REPLAY_USAGE}`);
    return 2;
  }
  if (parsed.values.help) return (write(REPLAY_USAGE), 0);
  if (parsed.positionals.length !== 1) return (write(REPLAY_USAGE), 2);
  let files: ScenarioFile[];
  try {
    files = loadAll(parsed.positionals[0]);
  } catch (err) {
    write(`replay: ${(err as Error).message}`);
    return 2;
  }
  const local = parsed.values.url
    ? null
    : await startServer(makeConfig({ inMemory: true, port: 0, host: '127.0.0.1' }));
  const results: FileResult[] = [];
  try {
    const baseUrl = parsed.values.url ?? (local?.url as string);
    for (const file of files) {
      const result = await replayFile(file, { baseUrl, adminToken: process.env.SANDBOX_ADMIN_TOKEN });
      printResult(result, write);
      results.push(result);
    }
  } finally {
    await local?.close();
  }
  if (parsed.values.junit) writeFileSync(parsed.values.junit, toJUnit(results));
  const failed = results.filter((r) => !filePassed(r)).length;
  write(`${results.length - failed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}
