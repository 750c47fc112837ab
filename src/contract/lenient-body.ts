import { ApiError } from './errors.js';

/** A body the leniency stage went through: its nullable fields hold no `null` (taken as absent, or refused). */
export type NullsTakenAsAbsent<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * The type of a body once the leniency stage (lenient-stage.ts) ran, which every operation of the
 * marketplace API passes before its handler: the stage took each `null` out, or refused it.
 */
export const afterLeniency = <T>(body: T): NullsTakenAsAbsent<T> => body as NullsTakenAsAbsent<T>;

/** A request body property the contract declares nullable, with the type it has when not null. */
export interface NullableField {
  name: string;
  type: string;
  /**
   * `x-sandbox-null-is-absent`: a `null` here is how JSON says "none" (an amount not given), taken
   * as absent in either mode without a warning.
   */
  absent?: boolean;
}

/** What the body leniencies of one operation need, read from its request body schema. */
export interface BodyFields {
  nullable: readonly NullableField[];
  /** Properties marked `readOnly`: what a read shows and the server sets (`id`, `created_at`). */
  readOnly: readonly string[];
}

/**
 * A body as a client sends back what it read (docs/errors.md, "Warnings"); returns the warnings
 * and changes `body` in place:
 * - a `null` in a field the contract shows as nullable (`description`, `location_city`,
 *   `featured_payment_method`, …) is taken as absent, with a warning each; with `strict` it is
 *   the 400 it would be for a field that takes only its type;
 * - a `null` in a field marked `x-sandbox-null-is-absent` (`price_cents`) is absent, in either
 *   mode, without a warning (a missing amount is then `Amount required`);
 * - a read-only field (`id`, `store_slug`, `created_at`, `expires_at` of a listing) is ignored,
 *   with a warning each; with `strict` it is a 400 `body.<field> is read-only`.
 */
export function lenientBody(body: unknown, fields: BodyFields, strict: boolean): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const warnings: string[] = [];
  for (const name of fields.readOnly) {
    if (!Object.hasOwn(record, name)) continue;
    if (strict) throw new ApiError(400, `body.${name} is read-only`);
    delete record[name];
    warnings.push(`body.${name} is read-only: ignored`);
  }
  for (const { name, type, absent } of fields.nullable) {
    if (record[name] !== null) continue;
    if (absent) {
      delete record[name];
      continue;
    }
    if (strict) throw new ApiError(400, `body.${name} must be ${type}`);
    delete record[name];
    warnings.push(`body.${name} null taken as absent`);
  }
  return warnings;
}
