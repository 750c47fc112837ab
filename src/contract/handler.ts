import type { NextFunction, Request, Response } from 'express';
import type { AnswersBytes, Body, JsonText, OperationId, PathParams, Query, Reply } from './types.js';

/** A value seen read-only all the way down: what a handler sends is never changed once built. */
export type DeepReadonly<T> = T extends Buffer
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
      : T;

/**
 * What a handler of `K` may send: its JSON reply (read-only, so records whose arrays are shared
 * and frozen, store/intern.ts, can be sent as they are), that reply as JSON text made earlier, or
 * bytes where the operation answers with a file.
 */
export type Sent<K extends OperationId> =
  DeepReadonly<Reply<K>> | JsonText<Reply<K>> | (AnswersBytes<K> extends true ? Buffer : never);

/**
 * The handler of one openapi.yaml operation, typed from the contract: `req.params`, `req.query`
 * and `req.body` as request validation leaves them, and `res.json` taking the success reply.
 * @example const getListing: Handler<'getListing'> = (req, res) => res.json(view(req.params.id));
 */
export type Handler<K extends OperationId> = (
  req: Request<PathParams<K>, Sent<K>, Body<K>, Query<K>>,
  res: Response<Sent<K>>,
  next: NextFunction,
) => void | Promise<void>;

/**
 * A request of any operation, for helpers that read only what every request has (world,
 * principal, headers, scenarios): a typed request of any handler can be passed to them.
 */
export type AnyRequest = Request<object, never, unknown, object>;

/**
 * Handlers of one area, by the operationId of openapi.yaml they answer. An area writes
 * `return { … } satisfies Handlers`, so each handler is typed from its operation, and the table of
 * every handler (app/handlers.ts) checks at compile time that none is missing.
 */
export type Handlers = { [K in OperationId]?: Handler<K> };

/** Every operation's handler. */
export type AllHandlers = { [K in OperationId]: Handler<K> };
