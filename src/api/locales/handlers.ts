import type { AppDeps } from '../../app/deps.js';
import { ApiError } from '../../contract/errors.js';
import type { Handlers } from '../../contract/handler.js';
import { localeFile } from './locales.js';

export function localeHandlers(_deps: AppDeps) {
  return {
    getLocale: (req, res) => {
      const code = req.params.lang;
      const file = localeFile(code);
      if (!file) throw new ApiError(404, `No locale file for language ${JSON.stringify(code.slice(0, 20))}`);
      res.set({ ETag: file.etag, 'Cache-Control': 'public, max-age=3600' });
      if (req.headers['if-none-match'] === file.etag) {
        res.status(304).end();
        return;
      }
      res.type('application/json').send(file.body);
    },
  } satisfies Handlers;
}
