import type { RequestHandler } from 'express';

/** Handlers of one area, by the operationId of openapi.yaml they answer. */
export type Handlers = Record<string, RequestHandler>;
