import { UsageError } from './usage-error.js';

export type CommandName = 'serve' | 'replay' | 'help';

export interface Command {
  name: CommandName;
  /** What follows the name in a usage line. */
  args: string;
  summary: string;
}

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: Command[] = [
  { name: 'serve', args: '[options]', summary: 'serve the sandbox (the default when no command is given)' },
  {
    name: 'replay',
    args: '<file|dir> [options]',
    summary: 'replay scenario files against a sandbox (marketplace-sandbox replay --help)',
  },
  { name: 'help', args: '[command]', summary: 'show this help, or the help of a command' },
];

/**
 * Splits the command line into the command and its arguments. A first argument that is a flag (or
 * nothing) means `serve`, so `marketplace-sandbox --port 4000` keeps working as it always did.
 * @example commandOf(['replay', 'scenarios/']) // { name: 'replay', args: ['scenarios/'] }
 */
export function commandOf(argv: string[]): { name: CommandName; args: string[] } {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) return { name: 'serve', args: argv };
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) {
    const names = COMMANDS.map((c) => c.name).join(', ');
    throw new UsageError(`unknown command "${first}" (commands: ${names})`);
  }
  return { name: command.name, args: rest };
}
