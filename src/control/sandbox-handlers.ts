import { parseDuration } from '../world/clock.js';
import type { AppDeps } from '../app/deps.js';
import { ApiError } from '../contract/errors.js';
import type { World } from '../world/world.js';
import type { Body } from '../contract/types.js';
import type { Handlers } from '../contract/handler.js';
import { normalizeEmail } from '../api/auth/users.js';

type ClockBody = Body<'setClock'>;

/** Applies one clock change; every field is checked before anything moves. */
function changeClock(world: World, body: ClockBody): void {
  if (body.advance !== undefined && body.set !== undefined)
    throw new ApiError(400, 'body: give advance or set, not both');
  if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
    throw new ApiError(400, 'body: give advance, set or freeze');
  }
  let target: number | undefined;
  if (body.advance !== undefined) {
    const ms = parseDuration(body.advance);
    if (ms === null || ms < 0)
      throw new ApiError(
        400,
        'body.advance must be a positive duration such as "25h", "30m", "1d12h" or a number of milliseconds',
      );
    target = world.clock.now() + ms;
  }
  if (body.set !== undefined) {
    target = Date.parse(body.set);
    if (Number.isNaN(target)) throw new ApiError(400, 'body.set must be an ISO 8601 date-time');
  }
  if (target !== undefined && (target < 0 || target > 8.64e15))
    throw new ApiError(400, 'body: the clock would leave the representable range');
  // Freeze first, then move: `{set, freeze: true}` must stop exactly at `set`.
  if (body.freeze !== undefined) world.clock.freeze(body.freeze);
  if (target !== undefined) world.clock.set(target);
}

export function sandboxHandlers(deps: AppDeps) {
  return {
    getHealth: (req, res) => {
      res.json({ status: 'ok', version: deps.version, seed: req.world.seedOptions.seed });
    },
    resetSandbox: async (req, res) => {
      await req.world.reset();
      res.json({ success: true, seed: req.world.seedOptions.seed, clock: req.world.clock.state() });
    },
    getClock: (req, res) => {
      res.json(req.world.clock.state());
    },
    setClock: async (req, res) => {
      changeClock(req.world, req.body);
      // Persist the new time: the store records the clock on every write.
      await req.world.store.commit(() => undefined);
      res.json(req.world.clock.state());
    },
    getMailbox: (req, res) => {
      const to = req.query.to === undefined ? undefined : normalizeEmail(req.query.to);
      const messages = req.world.store.db.mailbox
        .filter((m) => to === undefined || m.to === to)
        .slice()
        .reverse();
      res.json({ messages });
    },
  } satisfies Handlers;
}
