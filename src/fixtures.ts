import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repo's fixtures/ folder, found from this module (works from src/ with tsx and from dist/). */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

const cache = new Map<string, unknown>();

/** Reads and caches a JSON file under fixtures/ (static data, read once per process). */
export function loadFixture<T>(name: string): T {
  if (!cache.has(name)) cache.set(name, JSON.parse(readFileSync(FIXTURES_DIR + name, 'utf8')));
  return cache.get(name) as T;
}
