import { describe, expect, it } from 'vitest';
import { sniffImage } from './magic.js';
import { placeholderPng } from './placeholder.js';

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
  it('is deterministic per label', () => {
    expect(placeholderPng('seed-a-1.png').equals(placeholderPng('seed-a-1.png'))).toBe(true);
    expect(placeholderPng('seed-a-1.png').equals(placeholderPng('seed-a-2.png'))).toBe(false);
  });
});
