import { describe, expect, it } from 'vitest';
import { forgetIdSpace, newId, seedIdSpace, uuidFor } from './ids.js';

describe('uuidFor', () => {
  it('is a deterministic version-4 UUID per id space and counter', () => {
    expect(uuidFor(42, 0)).toBe(uuidFor(42, 0));
    expect(uuidFor(42, 0)).toBe(uuidFor('42', 0));
    expect(uuidFor(42, 0)).not.toBe(uuidFor(42, 1));
    expect(uuidFor(42, 0)).not.toBe(uuidFor(43, 0));
    for (let n = 0; n < 100; n += 1) {
      expect(uuidFor(7, n)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('newId', () => {
  it("numbers the seed's records in the seed's space", () => {
    const db: { meta: { seed: number; next_id: number; id_space?: string } } = {
      meta: { seed: 1, next_id: 5 },
    };
    seedIdSpace(db);
    expect(newId(db)).toBe(uuidFor(1, 5));
    expect(db.meta.next_id).toBe(6);
  });

  it('draws a random space after the seed, kept for the ids that follow, and a new one once forgotten', () => {
    const db: { meta: { seed: number; next_id: number; id_space?: string } } = {
      meta: { seed: 1, next_id: 5 },
    };
    const first = newId(db);
    const space = db.meta.id_space;
    expect(space).toMatch(/^[0-9a-f]{32}$/);
    expect(first).not.toBe(uuidFor(1, 5));
    expect(newId(db)).toBe(uuidFor(space as string, 6));
    forgetIdSpace(db);
    db.meta.next_id = 5;
    expect(newId(db)).not.toBe(first);
    expect(db.meta.id_space).not.toBe(space);
  });
});
