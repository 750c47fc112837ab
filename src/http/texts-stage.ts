import type { RequestHandler } from 'express';
import { textsReady } from '../i18n/warm-up.js';

/**
 * Stage 14 (docs/architecture.md): waits for the catalogue's texts that handlers read (the
 * item templates, the lexicon), built in slices on first use if the process has not built them
 * yet (i18n/warm-up.ts), so no request builds them at once and holds every sandbox up. Once they
 * are built, it costs a check. The word lists of a language are awaited by the handlers that read
 * them (the listings search, the assistant), which know the language.
 */
export const textsStage: RequestHandler = (_req, _res, next) => {
  const waiting = textsReady([]);
  if (!waiting) return next();
  waiting.then(() => next(), next);
};
