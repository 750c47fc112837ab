import { describe, expect, it } from 'vitest';
import { helpText, parseCli, UsageError } from '../../src/cli/args.js';

describe('isolation flags', () => {
  it('defaults to 100 sandboxes and 30 idle minutes', () => {
    const { config } = parseCli([], {});
    expect(config.maxSandboxes).toBe(100);
    expect(config.sandboxIdleMinutes).toBe(30);
  });

  it('reads --max-sandboxes and --sandbox-idle-minutes, flags over environment', () => {
    const env = { SANDBOX_MAX_SANDBOXES: '7', SANDBOX_IDLE_MINUTES: '5' };
    expect(parseCli([], env).config).toMatchObject({ maxSandboxes: 7, sandboxIdleMinutes: 5 });
    const { config } = parseCli(['--max-sandboxes', '3', '--sandbox-idle-minutes', '0'], env);
    expect(config).toMatchObject({ maxSandboxes: 3, sandboxIdleMinutes: 0 });
  });

  it('refuses values out of range', () => {
    expect(() => parseCli(['--max-sandboxes', '-1'], {})).toThrow(UsageError);
    expect(() => parseCli(['--max-sandboxes', '10001'], {})).toThrow(/between 0 and 10000/);
    expect(() => parseCli(['--sandbox-idle-minutes', 'soon'], {})).toThrow(/whole number/);
  });

  it('lists them in --help', () => {
    expect(helpText()).toMatch(/--max-sandboxes N .*SANDBOX_MAX_SANDBOXES/);
    expect(helpText()).toMatch(/--sandbox-idle-minutes N .*SANDBOX_IDLE_MINUTES/);
  });
});
