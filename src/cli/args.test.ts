import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../process/config.js';
import { helpText, parseCli, UsageError } from './args.js';

describe('parseCli', () => {
  it('uses defaults, then environment, then flags', () => {
    expect(parseCli([], {}).config).toEqual(defaultConfig);
    const fromEnv = parseCli([], { PORT: '4000', SANDBOX_SEED: '7', SANDBOX_IN_MEMORY: 'true' }).config;
    expect([fromEnv.port, fromEnv.seed, fromEnv.inMemory]).toEqual([4000, 7, true]);
    const flags = parseCli(['--port', '5000', '--in-memory', '--seed', '9', '--data', 'x.json', '--reset'], {
      PORT: '4000',
    }).config;
    expect([flags.port, flags.inMemory, flags.seed, flags.dataFile, flags.reset]).toEqual([
      5000,
      true,
      9,
      'x.json',
      true,
    ]);
  });

  it('reads --help and --version', () => {
    expect(parseCli(['--help'], {}).help).toBe(true);
    expect(parseCli(['-v'], {}).version).toBe(true);
    expect(helpText()).toContain('--port N');
    expect(helpText()).toContain('[env SANDBOX_SEED]');
  });

  it('refuses bad flags and values with a one-line message', () => {
    const bad: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--nope'], {}, /Unknown option '--nope'/],
      [['--port', 'abc'], {}, /--port must be a whole number/],
      [['--port', '70000'], {}, /--port must be between 0 and 65535/],
      [[], { PORT: '-1' }, /PORT must be a whole number/],
      [[], { SANDBOX_IN_MEMORY: 'maybe' }, /SANDBOX_IN_MEMORY must be true or false/],
      [['--clock-start', 'tomorrow'], {}, /--clock-start must be an ISO 8601/],
      [['--jwt-secret', 'short'], {}, /at least 32 bytes/],
      [['--listings', '100001'], {}, /--listings must be between 0 and 100000/],
      [['extra'], {}, /Unexpected argument/],
    ];
    for (const [argv, env, message] of bad) {
      expect(() => parseCli(argv, env)).toThrow(UsageError);
      expect(() => parseCli(argv, env)).toThrow(message);
    }
  });
});
