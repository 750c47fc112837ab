/** What a 415 from body-parser or the request validator carries. */
interface MediaTypeError {
  type?: string;
  encoding?: string;
  charset?: string;
}

/** The request as far as a 415 needs it: its headers, and the operation the validator matched. */
interface MediaTypeRequest {
  headers: { 'content-type'?: string };
  openapi?: unknown;
}

/** The Content-Encodings body-parser decodes (besides identity). */
const ENCODINGS = 'gzip, deflate or br';

/** The media types the matched operation takes, from its requestBody in openapi.yaml. */
function acceptedTypes(req: MediaTypeRequest): string[] {
  const op = req.openapi as { schema?: { requestBody?: { content?: Record<string, unknown> } } } | undefined;
  const types = Object.keys(op?.schema?.requestBody?.content ?? {});
  return types.length > 0 ? types : ['application/json'];
}

/**
 * The message of a 415, naming what was wrong and what to send instead: a Content-Encoding the
 * sandbox cannot decode, a charset other than UTF-8, or a media type the operation does not take.
 * @example an upload sent as JSON: `Unsupported media type application/json: send multipart/form-data`
 */
export function unsupportedMediaType(err: MediaTypeError, req: MediaTypeRequest): string {
  if (err.type === 'encoding.unsupported') {
    // The upload's parser decodes no encoding at all; body-parser (JSON) decodes three.
    const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
    const ways = multipart ? 'unencoded (a multipart body is read as sent)' : `unencoded or as ${ENCODINGS}`;
    return `Unsupported Content-Encoding "${err.encoding ?? ''}": send the body ${ways}`;
  }
  if (err.type === 'charset.unsupported')
    return `Unsupported charset "${err.charset ?? ''}": send the body as UTF-8`;
  const sent = req.headers['content-type'];
  const accepted = acceptedTypes(req).join(' or ');
  return sent
    ? `Unsupported media type ${sent}: send ${accepted}`
    : `Content-Type is missing: send ${accepted}`;
}
