import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StoreFileError } from '../store/file-adapter.js';
import type { Config } from './config.js';

/** The shortest secret taken (the CLI's `--jwt-secret` has the same bound). */
const MIN_SECRET_LENGTH = 32;

/** The way out of a secret file that cannot be used (one line, as for the database files). */
const wayOut = (file: string) =>
  `it was left untouched. Move ${file} away (a new secret is made, and tokens issued before stop working), ` +
  'or give the secret with --jwt-secret';

/**
 * The HS256 secret: `--jwt-secret` when given; else a random secret per data directory, kept in
 * `jwt-secret` beside the database so tokens survive restarts; in memory, random per process.
 * A secret file that is there but cannot be used (unreadable, empty, shorter than 32 characters)
 * stops start-up (a StoreFileError: exit code 2, one line naming the file and the way out) and is
 * left as it is: replacing it would silently invalidate every token issued with it.
 */
export async function jwtSecretFor(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.inMemory) return randomBytes(32).toString('hex');
  const file = join(dirname(config.dataFile), 'jwt-secret');
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StoreFileError(
        `Cannot read the token secret file ${file} (${(err as Error).message}); ${wayOut(file)}.`,
      );
  }
  if (text !== undefined) {
    const secret = text.trim();
    if (secret.length >= MIN_SECRET_LENGTH) return secret;
    const what =
      secret.length === 0 ? 'is empty' : `holds ${secret.length} characters, fewer than ${MIN_SECRET_LENGTH}`;
    throw new StoreFileError(`The token secret file ${file} ${what}; ${wayOut(file)}.`);
  }
  const secret = randomBytes(32).toString('hex');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, secret + '\n', { mode: 0o600 });
  return secret;
}
