import {
  createServer,
  IncomingMessage,
  ServerResponse,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { Express } from 'express';

/**
 * Makes `cls.prototype` the object Express gives every request (or response) of the app as its
 * prototype: it takes the place of `expressProto` (`app.request` or `app.response`), with its
 * prototype (Express's methods, then Node's) and its own properties (the `app`).
 */
function adopt(cls: { prototype: object }, expressProto: object): object {
  Object.setPrototypeOf(cls.prototype, Object.getPrototypeOf(expressProto));
  const { constructor: _, ...own } = Object.getOwnPropertyDescriptors(expressProto);
  Object.defineProperties(cls.prototype, own);
  return cls.prototype;
}

/**
 * The HTTP server of an app, whose requests and responses Node makes (`createServer`'s options
 * `IncomingMessage` and `ServerResponse`) with the prototypes Express gives them as they enter the
 * app (`app.request`, `app.response`), so Express's `Object.setPrototypeOf` on each finds it in
 * place and changes nothing. Changing the prototype of two objects on every request sent V8's
 * property lookups down their slowest path all along the request path: a durable write took twice
 * the CPU time (docs/hardening.md; expressjs/express#5998, open, proposes this for Express).
 */
export function serverFor(app: Express): Server {
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  app.request = adopt(Request, app.request) as Express['request'];
  app.response = adopt(Response, app.response) as Express['response'];
  const options: ServerOptions = {
    IncomingMessage: Request,
    ServerResponse: Response as typeof ServerResponse,
  };
  const server = createServer(options, app);
  madeBy.set(server, options);
  return server;
}

const madeBy = new WeakMap<Server, ServerOptions>();

/** Another server (a second port) whose requests are made as `main`'s are, for `listener`. */
export function serverLike(main: Server, listener: RequestListener): Server {
  return createServer(madeBy.get(main) ?? {}, listener);
}
