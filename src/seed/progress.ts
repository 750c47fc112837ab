/**
 * Who hears seeding progress. Kept apart from context.ts (which loads faker) so the CLI can
 * register its bar without paying for faker when it opens an existing data file.
 */
export type SeedProgress = (done: number, total: number) => void;

let progressReporter: SeedProgress | undefined;

/** Registers who hears seeding progress (the CLI's bar); `undefined` stops reporting. */
export function reportSeedProgress(reporter: SeedProgress | undefined): void {
  progressReporter = reporter;
}

/** The registered progress reporter, handed to seeders through `SeedContext.progress`. */
export function seedProgressReporter(): SeedProgress | undefined {
  return progressReporter;
}
