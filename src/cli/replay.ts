import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeConfig } from '../process/config.js';
import { loadScenarioFile, scenarioPaths, type ScenarioFile } from '../scenarios/file.js';
import { toJUnit } from '../scenarios/replay/junit.js';
import { filePassed, replayFile, type FileResult } from '../scenarios/replay/runner.js';
import { startServer } from '../process/server.js';
import { adminTokenProblem } from './admin-check.js';

export const REPLAY_USAGE = 'Usage: marketplace-sandbox replay <file|dir> [--url URL] [--junit FILE]';

/** `marketplace-sandbox replay --help`. */
export const REPLAY_HELP = [
  REPLAY_USAGE,
  '',
  'Replays scenario files (a .yaml file, or every .yaml file of a directory): each file runs in its own',
  'sandbox (X-Sandbox-Id replay-<name>), which is reset and given the file, then its steps run in order.',
  '',
  'Options:',
  '  --url URL          a running sandbox to replay against (default: an in-memory one started for the run)',
  '  --junit FILE       also write the results as JUnit XML to FILE',
  '  --help, -h         show this help',
  '',
  'Environment:',
  '  SANDBOX_ADMIN_TOKEN  sent as X-Sandbox-Admin-Token, for a sandbox started with an admin token',
  '',
  'Exit codes: 0 every expectation held; 1 one failed, or the sandbox could not be reached;',
  '2 bad usage, a missing or invalid scenario file, or a sandbox that refused the admin token.',
].join('\n');

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

/** Loads every file first, so a broken or missing file fails the run before anything is sent. */
function loadAll(target: string): ScenarioFile[] {
  if (!existsSync(target)) throw new Error(`no scenario file or directory at ${target}`);
  const paths = scenarioPaths(target);
  if (paths.length === 0) throw new Error(`no scenario files (*.yaml) in ${target}`);
  return paths.map((path) => loadScenarioFile(path));
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: { url: { type: 'string' }, junit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
}

/**
 * `marketplace-sandbox replay <file|dir> [--url URL] [--junit FILE]`: runs scenario steps against a
 * running sandbox, or an in-process in-memory one when no URL is given. Returns the exit code:
 * 0 when every expectation held, 1 when one failed, 2 on bad usage, an unreadable file or a
 * sandbox that wants an admin token it was not given. The results go to `write` (stdout); a run
 * that cannot start says why on `fail` (stderr), so a CI log or a pipe keeps the two apart.
 */
export async function runReplay(
  argv: string[],
  write: Write = (l) => process.stdout.write(l + '\n'),
  env: NodeJS.ProcessEnv = process.env,
  fail: Write = (l) => process.stderr.write(l + '\n'),
): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (err) {
    fail(`replay: ${(err as Error).message.split('\n')[0]}\n${REPLAY_USAGE}`);
    return 2;
  }
  if (parsed.values.help) return (write(REPLAY_HELP), 0);
  if (parsed.positionals.length !== 1) return (fail(REPLAY_USAGE), 2);
  let files: ScenarioFile[];
  try {
    files = loadAll(parsed.positionals[0]);
  } catch (err) {
    fail(`replay: ${(err as Error).message}`);
    return 2;
  }
  const adminToken = env.SANDBOX_ADMIN_TOKEN || undefined;
  const { url } = parsed.values;
  const problem = url ? await adminTokenProblem(url, adminToken) : null;
  if (problem) return (fail(`replay: ${problem}`), 2);
  const local = url ? null : await startServer(makeConfig({ inMemory: true, port: 0, host: '127.0.0.1' }));
  const results: FileResult[] = [];
  try {
    const baseUrl = url ?? (local?.url as string);
    for (const file of files) {
      const result = await replayFile(file, { baseUrl, adminToken });
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
