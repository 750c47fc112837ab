/**
 * CRC-32 of `data` (a string counts as its UTF-8 bytes), continuing from `value`: zlib's, as Node
 * ships it. Enough to tell any flipped byte or torn write of a store file from what was written
 * (not a defence against someone who edits the file on purpose and fixes the sum).
 */
export { crc32 } from 'node:zlib';

/** A sum as written in the files: 8 lower-case hex digits. */
export function sumText(sum: number): string {
  return sum.toString(16).padStart(8, '0');
}
