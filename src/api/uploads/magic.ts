/** Image kinds accepted by the upload endpoint, recognised by their first bytes. */
export const IMAGE_KINDS = [
  {
    type: 'image/jpeg',
    ext: 'jpg',
    test: (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    type: 'image/png',
    ext: 'png',
    test: (b: Buffer) =>
      b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    type: 'image/gif',
    ext: 'gif',
    test: (b: Buffer) => b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
  },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b: Buffer) =>
      b.length >= 12 &&
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
] as const;

/**
 * The image kind of some bytes, by content only (the declared type is ignored).
 * @example sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0])) // { type: 'image/jpeg', ext: 'jpg' }
 */
export function sniffImage(bytes: Buffer): { type: string; ext: string } | null {
  const kind = IMAGE_KINDS.find((k) => k.test(bytes));
  return kind ? { type: kind.type, ext: kind.ext } : null;
}

/** Content type of a stored file name, from its extension. */
export function typeOfName(name: string): string | undefined {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  return IMAGE_KINDS.find((k) => k.ext === ext)?.type;
}
