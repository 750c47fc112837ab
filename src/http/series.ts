import type { RequestHandler } from 'express';

/**
 * Handlers run one after another as one handler, as Express runs consecutive layers: each goes
 * on with `next()`; a `next(err)`, a throw or a rejected promise hands the error on and nothing
 * later runs. Unlike a router that a request leaves, the last `next()` is called at once, never in
 * a later turn of the event loop, and a request walks no layers. A handler's throw or rejection
 * after it went on is not its error any more (a handler after it already answers) and is
 * dropped, not handed on twice.
 */
export function series(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let calls = 0;
    const step = (err?: unknown): void => {
      const at = ++calls;
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[at - 1];
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise)
          result.catch((e: unknown) => {
            if (calls === at) step(e ?? new Error('Rejected promise'));
          });
      } catch (e) {
        if (calls === at) step(e);
      }
    };
    step();
  };
}
