import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import { signToken } from './tokens.js';
import { newId } from '../../world/ids.js';
import type { Handlers } from '../../contract/handler.js';
import { ApiError } from '../../contract/errors.js';
import { lenient, quoted } from '../../contract/warnings.js';
import { authenticate, isReferralCode, register, requestPasswordReset, resetPassword } from './service.js';

export function authHandlers(deps: AppDeps) {
  return {
    register: async (req, res) => {
      // An empty code (a form's empty field) is none, as an empty query value is: no warning.
      const code = req.body.referralCode?.trim() ? req.body.referralCode : undefined;
      if (code !== undefined && !isReferralCode(req.world.store.db, code))
        lenient(
          res,
          deps.config.strict,
          `referralCode ${quoted(code)} is no user's code: the account is created, nobody is credited`,
          () => new ApiError(400, 'body.referralCode is not a known referral code'),
        );
      const user = await register(
        req.world,
        { ...req.body, referralCode: code },
        deps.config.referralCreditCents,
      );
      const token = signToken(req.world, deps.jwtSecret, user.id, 'user');
      res.status(201).json({ success: true, token, user: { id: user.id, email: user.email } });
    },
    login: async (req, res) => {
      const { email, password } = req.body;
      const user = await authenticate(req.world, email, password);
      const token = signToken(req.world, deps.jwtSecret, user.id, 'user');
      res.json({ success: true, token, user: { id: user.id, email: user.email } });
    },
    forgotPassword: async (req, res) => {
      await requestPasswordReset(req.world, req.body.email);
      res.json({
        success: true,
        message: 'If an account exists for this email, a reset link has been sent.',
      });
    },
    resetPassword: async (req, res) => {
      const { token, password } = req.body;
      await resetPassword(req.world, token, password);
      res.json({ success: true, message: 'Password has been reset. You can log in with the new password.' });
    },
    getMe: (req, res) => {
      const user = req.world.store.db.users[userId(req)];
      res.json({
        id: user.id,
        email: user.email,
        fullName: user.full_name,
        referralCode: user.referral_code,
      });
    },
    createGuest: async (req, res) => {
      const id = await req.world.store.commit((db) => newId(db));
      const guestToken = signToken(req.world, deps.jwtSecret, id, 'guest');
      res.status(201).json({ guestToken, expires_in: 7 * 24 * 3600 });
    },
  } satisfies Handlers;
}
