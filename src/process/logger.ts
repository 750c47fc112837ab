import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Where secrets can sit in what the sandbox logs: credentials in request headers and query, and
 * passwords, tokens and keys in bodies (ours or a client's, one or two levels down).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-guest-token"]',
  'req.headers["x-sandbox-admin-token"]',
  'req.query.api_key',
  'headers.authorization',
  'headers["x-guest-token"]',
  'authorization',
  'password',
  'token',
  'key',
  'api_key',
  'guestToken',
  'jwtSecret',
  '*.password',
  '*.token',
  '*.key',
  '*.api_key',
  '*.guestToken',
  '*.jwtSecret',
  '*.*.password',
  '*.*.token',
  '*.*.key',
];

/** The sandbox's logger: pino with every credential path redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
