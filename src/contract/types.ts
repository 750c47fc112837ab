import type { components, operations } from '../generated/api.js';

/**
 * The types of openapi.yaml, taken from src/generated/api.ts (`npm run gen:types`) so that no
 * request, response or schema shape is written twice. Handlers get them through `Handler<K>`
 * (handler.ts); domain functions that take or return a contract shape name it here.
 */

/** The operationId of every operation in openapi.yaml. */
export type OperationId = keyof operations;

/** A schema of openapi.yaml's `components.schemas`, e.g. `Schema<'Listing'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

type Parameters<K extends OperationId> = operations[K]['parameters'];

/** An operation's path parameters (`{}` when it has none). */
export type PathParams<K extends OperationId> =
  Parameters<K> extends { path: infer P } ? P : Record<string, never>;

/**
 * An operation's query after request validation: numbers are numbers and defaults are filled in
 * (the validator coerces the query in place).
 */
export type Query<K extends OperationId> =
  Parameters<K> extends { query?: infer Q }
    ? [NonNullable<Q>] extends [never]
      ? object
      : NonNullable<Q>
    : object;

type BodyContent<K extends OperationId> =
  NonNullable<operations[K]['requestBody']> extends {
    content: infer C;
  }
    ? C[keyof C]
    : never;

/** An operation's request body after validation; `undefined` is possible where the body is optional. */
export type Body<K extends OperationId> = undefined extends operations[K]['requestBody']
  ? BodyContent<K> | undefined
  : BodyContent<K>;

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessResponse<K extends OperationId> = operations[K]['responses'][Extract<
  keyof operations[K]['responses'],
  SuccessStatus
>];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of an operation's success answer (a union when it has several, e.g. checkout). */
export type Reply<K extends OperationId> = JsonOf<SuccessResponse<K>>;

type MediaTypes<R> = R extends { content: infer C } ? keyof C : never;

/** True when an operation answers success with something other than JSON (an image). */
export type AnswersBytes<K extends OperationId> =
  Exclude<MediaTypes<SuccessResponse<K>>, 'application/json'> extends never ? false : true;

declare const jsonOf: unique symbol;

/**
 * JSON text of a `T`, serialized ahead of the request (a locale file is kept as text and sent as
 * it is): the brand says what the text holds, so a handler can send it where a `T` is due.
 */
export type JsonText<T> = string & { readonly [jsonOf]: T };
