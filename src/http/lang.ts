import type { Request } from 'express';

/** The language a request asks for (`lang`), English when it names none. */
export const langOf = (req: Request): string => (typeof req.query.lang === 'string' ? req.query.lang : 'en');
