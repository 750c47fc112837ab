/** The language a request asks for (its validated `lang` query parameter), English when it names none. */
export const langOf = (query: { lang?: string }): string => query.lang ?? 'en';
