import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from './config.js';

/**
 * The HS256 secret: `--jwt-secret` when given; else a random secret per data directory, kept in
 * `jwt-secret` beside the database so tokens survive restarts; in memory, random per process.
 */
export async function jwtSecretFor(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.inMemory) return randomBytes(32).toString('hex');
  const file = join(dirname(config.dataFile), 'jwt-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32).toString('hex');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, secret + '\n', { mode: 0o600 });
  return secret;
}
