import { describe, expect, it } from 'vitest';
import { sniffImage } from './magic.js';
import { catalogFixture } from '../../i18n/catalog-fixture.js';
import { placeholderPng, placeholderSubject } from './placeholder.js';

describe('sniffImage', () => {
  it('recognises JPEG, PNG, GIF and WebP by their first bytes', () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]))?.type).toBe('image/jpeg');
    expect(sniffImage(placeholderPng('x'))?.type).toBe('image/png');
    expect(sniffImage(Buffer.from('GIF87a....', 'latin1'))?.type).toBe('image/gif');
    expect(sniffImage(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'))?.type).toBe('image/webp');
  });
  it('refuses anything else, whatever its name', () => {
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\x00\x00\x00\x00WAVE', 'latin1'))).toBeNull();
  });
});

describe('placeholderPng', () => {
  it('is deterministic per name, a 400 × 300 PNG, the second picture a shade apart', () => {
    const t = catalogFixture().templates[0];
    const one = placeholderPng(`seed-${t.id}-1.png`);
    expect(one.equals(placeholderPng(`seed-${t.id}-1.png`))).toBe(true);
    expect(one.equals(placeholderPng(`seed-${t.id}-2.png`))).toBe(false);
    expect(one.readUInt32BE(16)).toBe(400);
    expect(one.readUInt32BE(20)).toBe(300);
  });

  it("shows a template's category drawing and English title, a subcategory's name for older names", () => {
    const t = catalogFixture().templates[0];
    expect(placeholderSubject(`seed-${t.id}-2.png`)).toEqual({
      category: t.category,
      subcategory: t.subcategory,
      title: t.text.en.title,
      variant: 2,
    });
    expect(placeholderSubject('seed-phones-0.png')).toEqual({
      category: 'electronics',
      subcategory: 'phones',
      title: 'Phones',
      variant: 1,
    });
    expect(placeholderSubject('seed-no-such-thing-1.png').category).toBe('other');
    const other = catalogFixture().templates.find((x) => x.category !== t.category)!;
    expect(placeholderPng(`seed-${t.id}-1.png`).equals(placeholderPng(`seed-${other.id}-1.png`))).toBe(false);
  });
});
