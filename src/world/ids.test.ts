import { describe, expect, it } from 'vitest';
import { newId, uuidFor } from './ids.js';

describe('uuidFor', () => {
  it('is a deterministic version-4 UUID per seed and counter', () => {
    expect(uuidFor(42, 0)).toBe(uuidFor(42, 0));
    expect(uuidFor(42, 0)).not.toBe(uuidFor(42, 1));
    expect(uuidFor(42, 0)).not.toBe(uuidFor(43, 0));
    for (let n = 0; n < 100; n += 1) {
      expect(uuidFor(7, n)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('newId advances the counter kept in the database', () => {
    const db = { meta: { seed: 1, next_id: 5 } };
    expect(newId(db)).toBe(uuidFor(1, 5));
    expect(db.meta.next_id).toBe(6);
  });
});
