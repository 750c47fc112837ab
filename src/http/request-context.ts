import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from './auth.js';
import type { World } from '../world/world.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The sandbox world this request acts on. */
    world: World;
    principal: Principal;
  }
}

/**
 * What the stages of the pipeline read about one request, on the fast paths and on the full
 * (Express) path alike: each stage is one function over it (docs/architecture.md lists them). The
 * fast paths build it from the raw request (fast-read.ts); the full path keeps one per request
 * that reads through to the Express request (express-context.ts).
 */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** performance.now() when the sandbox took the request (the journal's duration). */
  readonly started: number;
  /** The world the request acts on (the world stage). */
  readonly world: World;
  /** Who is calling; the fast paths take only requests without any credential. */
  readonly principal: Principal;
  /** `http` or `https`, as the client reached the sandbox. */
  readonly protocol: string;
  /** The client's address, the rate limit's key when no API key is verified. */
  readonly address: string;
  /** The request path, without its query. */
  readonly path: string;
  /** The query as the handler sees it once validation ran (defaults filled in). */
  query: Record<string, unknown>;
  /** The parsed request body (none on the fast paths: they take GETs only). */
  readonly body: unknown;
  /** The scenarios applied so far, as shown in `X-Sandbox-Scenario-Applied`. */
  readonly applied: readonly string[];
  /** The response body as sent, for the journal. */
  sent: string | Buffer | undefined;
  /**
   * Set when the sandbox the request names is not live and the request may not bring it live
   * (world-stage.ts): `world` is then the default world as a stand-in, which the request reads at
   * most (it is refused, or is the health check), and the journal does not record it.
   */
  standIn?: boolean;
  /** The rate-limit key a request that brought its sandbox live was counted against then. */
  countedAtLoad?: string;
  /**
   * Records the request in the journal now, once (set by the journal stage): a connection the
   * sandbox cuts itself is recorded before it is cut, so a client that reads the journal right
   * after seeing the cut finds it there.
   */
  record?: () => void;
}
