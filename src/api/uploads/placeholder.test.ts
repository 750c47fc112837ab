import { describe, expect, it } from 'vitest';
import { catalogFixture } from '../../i18n/catalog-fixture.js';
import { categoryFixture } from '../../seed/catalog-data.js';
import { placeholderSubject, printable } from './placeholder.js';

describe('printable: the text a placeholder draws in the pixel font', () => {
  it('spells the characters the font lacks in readable ASCII', () => {
    expect(printable('Babyzen YOYO² compact stroller')).toBe('Babyzen YOYO2 compact stroller');
    expect(printable('€2 commemorative coin')).toBe('EUR 2 commemorative coin');
    expect(printable('Down sleeping bag, comfort −5 °C')).toBe('Down sleeping bag, comfort -5 deg C');
    expect(printable('Buffet Crampon E11 B♭ clarinet')).toBe('Buffet Crampon E11 Bb clarinet');
    expect(printable('Cot mattress 60 × 120 cm, volumes 1–10')).toBe(
      'Cot mattress 60 x 120 cm, volumes 1-10',
    );
    expect(printable('Crème brûlée set, ½ price, Straße, Łódź')).toBe(
      'Creme brulee set, 1/2 price, Strasse, Lodz',
    );
    expect(printable('Kid’s “best” 25 m²')).toBe('Kid\'s "best" 25 m2');
  });

  it('draws no "?" for any seeded title or category name', () => {
    const names = [
      ...catalogFixture().templates.map((t) => placeholderSubject(`seed-${t.id}-1.png`).title),
      ...categoryFixture().flatMap((c) => [c.name.en, ...c.subcategories.map((s) => s.name.en)]),
    ];
    const unspelled = names.filter((title) => printable(title).includes('?') && !title.includes('?'));
    expect(unspelled).toEqual([]);
  });
});
