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
}

/**
 * A `null` sent in a field the contract shows as nullable (what a client read back from a listing:
 * `description`, `location_city`, `featured_payment_method`, …) is taken as absent, with a warning
 * each; with `strict` it is the 400 it would be for a field that takes only its type
 * (docs/errors.md, "Warnings"). Returns the warnings; changes `body` in place.
 */
export function nullsAsAbsent(body: unknown, fields: readonly NullableField[], strict: boolean): string[] {
  if (fields.length === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const warnings: string[] = [];
  for (const { name, type } of fields) {
    if (record[name] !== null) continue;
    if (strict) throw new ApiError(400, `body.${name} must be ${type}`);
    delete record[name];
    warnings.push(`body.${name} null taken as absent`);
  }
  return warnings;
}
