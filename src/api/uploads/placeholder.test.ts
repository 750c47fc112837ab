import { describe, expect, it } from 'vitest';
import { catalogFixture } from '../../i18n/catalog-fixture.js';
import { categoryFixture } from '../../seed/catalog-data.js';
import { loadFixture } from '../../fixtures.js';
import { placeholderIcon, placeholderPng, placeholderSubject, printable } from './placeholder.js';

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

describe('the drawing a placeholder shows', () => {
  it("is the subcategory's where the category's would mislead: a bicycle, not a car", () => {
    const icons = loadFixture<{ icons: Record<string, { rows: string[]; colours: Record<string, string> }> }>(
      'placeholder-icons.json',
    ).icons;
    const slugs = categoryFixture().flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]);
    for (const [key, icon] of Object.entries(icons)) {
      if (key !== 'other') expect(slugs, key).toContain(key);
      expect(icon.rows, key).toHaveLength(16);
      for (const row of icon.rows) {
        expect(row, key).toHaveLength(16);
        for (const letter of row)
          if (letter !== '.') expect(icon.colours[letter], `${key} ${letter}`).toBeDefined();
      }
    }
    const of = (template: string) => placeholderIcon(placeholderSubject(`seed-${template}-1.png`));
    const bike = of('woom-4-kids-bike-20');
    expect(bike.icon).toBe(icons.bicycles);
    expect(bike.background).toBe(of('vw-golf-7-14-tsi').background);
    expect(of('vw-golf-7-14-tsi').icon).toBe(icons.vehicles);
    for (const [template, sub] of [
      ['mens-full-grain-leather-belt', 'bags-accessories'],
      ['down-sleeping-bag-minus-5', 'camping'],
      ['coin-krugerrand-1oz-gold', 'coins-stamps'],
      ['honda-cb500f', 'motorcycles'],
    ])
      expect(of(template).icon, template).toBe(icons[sub]);
    expect(
      placeholderPng('seed-woom-4-kids-bike-20-1.png').equals(
        placeholderPng('seed-woom-4-kids-bike-20-1.png'),
      ),
    ).toBe(true);
  });
});
