import type { RequestHandler } from 'express';
import { NO_CREDENTIAL } from './principal.js';
import { ApiError, Messages } from '../contract/errors.js';
import { lenient } from '../contract/warnings.js';

const NO_CREDENTIAL_OR_GUEST = `${Messages.authRequired}: send a bearer token, an API key or X-Guest-Token`;

/**
 * The enforcement for one operation, from its `security` in openapi.yaml. A credential refused
 * where the operation does not need it is a leniency (docs/errors.md, "Warnings"): a public read
 * is answered as anonymous, and a bad X-Guest-Token beside a valid user credential is set aside;
 * with `strict`, both are the 401 they would otherwise be.
 */
export function enforceSecurity(security: string[], optional: boolean, strict: boolean): RequestHandler {
  const acceptsGuest = security.includes('guestToken');
  const acceptsUser = security.some((s) => s !== 'guestToken');
  const refused = (detail: string) => new ApiError(401, Messages.invalidToken, {}, detail);
  return (req, res, next) => {
    const p = req.principal;
    // An operation that takes no credential at all ignores whatever was sent (its spec lists no 401).
    if (security.length === 0) return next();
    if (optional) {
      // A public operation answers any refused credential, a guest token too, as anonymous.
      const invalid = p.invalidUser ?? p.invalidGuest;
      if (invalid !== undefined)
        lenient(res, strict, `${invalid}: answered as anonymous (the operation is public)`, () =>
          refused(invalid),
        );
      return next();
    }
    // Where a user is needed, a guest token the operation takes no guest for is an unknown header.
    const invalidGuest = acceptsGuest ? p.invalidGuest : undefined;
    if (p.invalidUser !== undefined) throw refused(p.invalidUser);
    if (acceptsUser && p.user) {
      if (invalidGuest !== undefined)
        lenient(res, strict, `${invalidGuest}: ignored, the request acts as the user`, () =>
          refused(invalidGuest),
        );
      return next();
    }
    if (invalidGuest !== undefined) throw refused(invalidGuest);
    if (acceptsGuest && p.guest) return next();
    throw refused(acceptsGuest ? NO_CREDENTIAL_OR_GUEST : NO_CREDENTIAL);
  };
}
