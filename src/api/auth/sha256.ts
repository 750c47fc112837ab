import { createHash } from 'node:crypto';

/** The hex SHA-256 of a text: how API keys and reset tokens are kept (never the secret itself). */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
