/**
 * What busboy (multer's parser, run by the request validator on the upload) says of a multipart
 * body it cannot read, and what that means to the client. busboy throws plain errors, which the
 * validator passes on as a 500 (or, for a missing boundary, as "multipart file(s) required").
 */
const UNREADABLE: Readonly<Record<string, string>> = {
  'Unexpected end of form': 'the body ends before its closing boundary (cut short?)',
  'Unexpected end of file': 'a file ends before the boundary that closes it (cut short?)',
  'Malformed part header': 'a part has a malformed header',
  'Multipart: Boundary not found': 'the Content-Type names no boundary',
  'multipart file(s) required': 'the Content-Type names no boundary',
};

/**
 * The 400 message for a multipart body the parser could not read, or undefined when `message` is
 * not such a failure or the request is not multipart (docs/errors.md).
 * @example unreadableMultipart('Unexpected end of form', 'multipart/form-data; boundary=x')
 *   // 'Malformed multipart body: the body ends before its closing boundary (cut short?)'
 */
export function unreadableMultipart(
  message: string | undefined,
  contentType: string | undefined,
): string | undefined {
  if (message === undefined || !/^multipart\//i.test(contentType ?? '')) return undefined;
  const why = Object.hasOwn(UNREADABLE, message) ? UNREADABLE[message] : undefined;
  if (why === undefined) return undefined;
  if (message === 'multipart file(s) required' && /boundary=/i.test(contentType ?? '')) return undefined;
  return `Malformed multipart body: ${why}`;
}
