import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FIXTURES_DIR } from '../../fixtures.js';
import { lexicon } from '../../i18n/lexicon.js';
import type { JsonText, Reply } from '../../contract/types.js';

export interface LocaleFile {
  /** The file's text, sent as it is (fixtures/locales/*.json hold a JSON object of strings). */
  body: JsonText<Reply<'getLocale'>>;
  etag: string;
}

const files = new Map<string, LocaleFile>();

/**
 * The UI strings of one language (`fixtures/locales/shop-<code>.json`), with a strong ETag.
 * Only the 17 known codes are ever turned into a path, so no request can reach another file.
 */
export function localeFile(code: string): LocaleFile | undefined {
  if (!lexicon().codes.includes(code)) return undefined;
  let file = files.get(code);
  if (!file) {
    const body = readFileSync(`${FIXTURES_DIR}locales/shop-${code}.json`, 'utf8') as JsonText<
      Reply<'getLocale'>
    >;
    file = { body, etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 27)}"` };
    files.set(code, file);
  }
  return file;
}
