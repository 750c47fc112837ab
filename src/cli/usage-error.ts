/** A bad command, flag or environment value: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {}
