import { crc32, deflateSync } from 'node:zlib';
import pixelFonts from 'js-pixel-fonts';
import { loadFixture } from '../../fixtures.js';
import { catalogFixture } from '../../i18n/catalog-fixture.js';
import { categoryFixture } from '../../seed/catalog-data.js';

/**
 * A drawing (fixtures/placeholder-icons.json): 16 rows of 16 pixels, a colour per letter, on a
 * category's background (a subcategory's drawing takes its category's).
 */
interface Icon {
  background?: string;
  colours: Record<string, string>;
  rows: string[];
}

/** What a placeholder shows: its subcategory's drawing (else its category's) and an item's title. */
export interface PlaceholderSubject {
  category: string;
  subcategory?: string;
  title: string;
  /** 1 or 2: a listing's second picture is a shade darker. */
  variant: number;
}

const WIDTH = 400;
const HEIGHT = 300;
const ICON_SCALE = 8;
const ICON_TOP = 24;
const TEXT_TOP = 168;
const MARGIN = 16;
const MAX_LINES = 3;
const INK: Rgb = [31, 41, 55];

type Rgb = [number, number, number];

const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/**
 * What `seed-<template>-<n>.png` shows: the template's category and English title. A name from
 * older data (`seed-<subcategory>-<n>.png`) shows the subcategory's category and name; anything
 * else a generic tag with the name's words.
 */
export function placeholderSubject(name: string): PlaceholderSubject {
  const match = /^seed-(.+)-(\d+)\.png$/.exec(name);
  const key = match?.[1] ?? name;
  const variant = match?.[2] === '2' ? 2 : 1;
  const template = catalogFixture().byId.get(key);
  if (template)
    return {
      category: template.category,
      subcategory: template.subcategory,
      title: template.text.en.title,
      variant,
    };
  for (const category of categoryFixture()) {
    const sub = category.subcategories.find((s) => s.slug === key);
    if (sub) return { category: category.slug, subcategory: sub.slug, title: sub.name.en, variant };
    if (category.slug === key) return { category: key, title: category.name.en, variant };
  }
  return { category: 'other', title: key.replace(/-/g, ' '), variant };
}

/** A picture as RGB rows, drawn into by the functions below. */
class Canvas {
  readonly data = new Uint8Array(WIDTH * HEIGHT * 3);

  fill(colour: Rgb): void {
    for (let p = 0; p < WIDTH * HEIGHT; p += 1) this.data.set(colour, p * 3);
  }

  block(x: number, y: number, size: number, colour: Rgb): void {
    for (let dy = 0; dy < size; dy += 1)
      for (let dx = 0; dx < size; dx += 1) {
        const px = x + dx;
        const py = y + dy;
        if (px >= 0 && px < WIDTH && py >= 0 && py < HEIGHT) this.data.set(colour, (py * WIDTH + px) * 3);
      }
  }

  pixels(rows: ArrayLike<number>[], x: number, y: number, scale: number, colour: Rgb): void {
    for (let r = 0; r < rows.length; r += 1)
      for (let c = 0; c < (rows[r]?.length ?? 0); c += 1)
        if (rows[r][c]) this.block(x + c * scale, y + r * scale, scale, colour);
  }
}

/**
 * Characters the pixel font lacks, as a reader would spell them in ASCII (after NFKD, which
 * already turns `²` into `2`, `½` into `1⁄2` and `™` into `TM`).
 */
const SPELLED: Record<string, string> = {
  '€': ' EUR ',
  '£': ' GBP ',
  '¥': ' JPY ',
  '°': ' deg ',
  '−': '-',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '×': 'x',
  '⁄': '/',
  '♭': 'b',
  '♯': '#',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '«': '"',
  '»': '"',
  '•': '-',
  '·': '-',
  '®': '(R)',
  '©': '(C)',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * A title in the pixel font's ASCII: compatibility forms and accents dropped (NFKD), the
 * characters of {@link SPELLED} spelled out, spaces tidied; only a character nobody can spell
 * becomes `?`.
 * @example printable('Down sleeping bag, comfort −5 °C') // 'Down sleeping bag, comfort -5 deg C'
 */
export const printable = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^ -~]/g, (c) => SPELLED[c] ?? (/\s/.test(c) ? ' ' : '?'))
    .replace(/ {2,}/g, ' ')
    .replace(/ ([,.;:!?)])/g, '$1')
    .trim();

const widthOf = (line: string) => pixelFonts.renderPixels(line, pixelFonts.fonts.sevenPlus)[0]?.length ?? 0;

/** The title broken into lines that fit at `scale`, or undefined when it needs more than three. */
function lines(title: string, scale: number): string[] | undefined {
  const out: string[] = [];
  for (const word of printable(title).split(/\s+/).filter(Boolean)) {
    const last = out.length - 1;
    if (last >= 0 && widthOf(`${out[last]} ${word}`) * scale <= WIDTH - 2 * MARGIN) out[last] += ` ${word}`;
    else out.push(word);
  }
  return out.length <= MAX_LINES && out.every((l) => widthOf(l) * scale <= WIDTH - 2 * MARGIN)
    ? out
    : undefined;
}

/** Draws the title centred below the drawing: large when it fits in three lines, smaller else. */
function drawTitle(canvas: Canvas, title: string): void {
  const scale = lines(title, 3) ? 3 : 2;
  const text =
    lines(title, scale) ?? (lines(title, 2) ?? [printable(title).slice(0, 40)]).slice(0, MAX_LINES);
  const lineHeight = 11 * scale;
  text.forEach((line, i) => {
    const pixels = pixelFonts.renderPixels(line, pixelFonts.fonts.sevenPlus);
    const x = Math.round((WIDTH - (pixels[0]?.length ?? 0) * scale) / 2);
    canvas.pixels(pixels, x, TEXT_TOP + i * lineHeight, scale, INK);
  });
}

/**
 * The drawing a subject shows and the card's colour: its subcategory's drawing where the fixture
 * has one, else its category's (`other` for neither), on the category's background.
 */
export function placeholderIcon(subject: PlaceholderSubject): { icon: Icon; background: string } {
  const icons = loadFixture<{ icons: Record<string, Icon> }>('placeholder-icons.json').icons;
  const card = icons[subject.category] ?? icons.other;
  const icon = (subject.subcategory !== undefined ? icons[subject.subcategory] : undefined) ?? card;
  return { icon, background: icon.background ?? card.background ?? '#f1f5f9' };
}

const darker = ([r, g, b]: Rgb): Rgb => [r * 0.9, g * 0.9, b * 0.9].map(Math.round) as Rgb;

/**
 * A placeholder picture a person recognises: the subcategory's drawing where it has one (a
 * bicycle, a coin, a tent), else the category's, on the category's colour, and the item's title
 * written below it. Deterministic: the same name always gives the same bytes.
 * @example placeholderPng('seed-apple-iphone-14-1.png') // a phone drawing over "Apple iPhone 14"
 */
export function placeholderPng(name: string): Buffer {
  const subject = placeholderSubject(name);
  const { icon, background: colour } = placeholderIcon(subject);
  const canvas = new Canvas();
  const background = rgb(colour);
  canvas.fill(subject.variant === 2 ? darker(background) : background);
  const left = (WIDTH - 16 * ICON_SCALE) / 2;
  icon.rows.forEach((row, y) =>
    [...row].forEach((letter, x) => {
      const colour = icon.colours[letter];
      if (colour) canvas.block(left + x * ICON_SCALE, ICON_TOP + y * ICON_SCALE, ICON_SCALE, rgb(colour));
    }),
  );
  drawTitle(canvas, subject.title);
  return encodePng(canvas.data, WIDTH, HEIGHT);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG of `rgb` (rows of `width` pixels). */
function encodePng(rgb: Uint8Array, width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1)
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
