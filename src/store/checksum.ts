import zlib from 'node:zlib';

let table: Int32Array | undefined;

/** CRC-32 in plain JavaScript, for Node versions before 20.15 (which have no `zlib.crc32`). */
function crc32Js(data: Uint8Array, value: number): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let crc = ~value;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

/**
 * CRC-32 of `data` (a string counts as its UTF-8 bytes), continuing from `value`: enough to tell
 * any flipped byte or torn write of a store file from what was written (not a defence against
 * someone who edits the file on purpose and fixes the sum).
 */
export function crc32(data: string | Uint8Array, value = 0): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data, value);
  return crc32Js(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, value);
}

/** A sum as written in the files: 8 lower-case hex digits. */
export function sumText(sum: number): string {
  return sum.toString(16).padStart(8, '0');
}
