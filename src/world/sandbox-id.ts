import type { Request } from 'express';
import { ApiError } from '../contract/errors.js';

/** The request header that selects a sandbox; responses echo it when it was sent. */
export const SANDBOX_ID_HEADER = 'X-Sandbox-Id';

/** The id of the world used when a request sends no `X-Sandbox-Id` (or sends `default`). */
export const DEFAULT_SANDBOX_ID = 'default';

/** `DELETE /__sandbox` without a named sandbox: the shared default world is never deleted. */
export const DEFAULT_NOT_DELETABLE =
  'The default sandbox cannot be deleted: send the X-Sandbox-Id of the sandbox to delete, ' +
  'or POST /__sandbox/reset to put the default back to the seed';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** True for a well-formed sandbox id: 1–64 characters of `[A-Za-z0-9_-]`. */
export function isSandboxId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/**
 * The sandbox id a request asks for: `default` when it sends no header. A malformed value (also an
 * empty one, which is what an unset CI variable gives) is refused rather than silently mapped to
 * the default world, where the job would see and change shared state.
 * @example sandboxIdOf(req) // 'ci-1234-unit' for `X-Sandbox-Id: ci-1234-unit`
 */
export function sandboxIdOf(req: Pick<Request, 'headers'>): string {
  const raw = req.headers[SANDBOX_ID_HEADER.toLowerCase()];
  if (raw === undefined) return DEFAULT_SANDBOX_ID;
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (isSandboxId(value)) return value;
  const shown = value.length > 70 ? `${value.slice(0, 70)}…` : value;
  throw new ApiError(
    400,
    `header ${SANDBOX_ID_HEADER} must be 1-64 characters of A-Z, a-z, 0-9, _ and -; got ${JSON.stringify(shown)}`,
  );
}
