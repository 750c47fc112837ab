/**
 * Compares three search libraries on the catalogue's text documents (src/search/catalog-text.ts),
 * all 17 languages, tokenised and stemmed once as production does (text.ts `wordsIn`, then
 * catalog-text.ts `indexTerm`: stopwords dropped, the rest stemmed) and handed over as space-joined
 * terms with a whitespace tokenizer and no stemming, so only the library differs. Measured per library:
 *  - build: all 17 languages' indexes, median of 3 fresh child processes (node --expose-gc),
 *    and the heap they keep (`heapUsed` after GC, minus before);
 *  - lookup µs (p50/p99, each call timed, after a warm-up round): an exact search of every word of
 *    test/search/shopper-queries.json (`queryWords`, stemmed per language) in every language; and
 *    the prefix + one-edit search production makes for words of 5+ letters (`typoEdits`);
 *  - agreement with MiniSearch: per query word, the set of (language, document) hits under
 *    text-match.ts's rule (exact in every language; prefix, one edit and neighbour swaps in the
 *    query's language and English when the word is no whole word there).
 * FlexSearch has no edit distance: its `tolerant` tokenizer (indexed swaps and dropped letters)
 * is what it has, measured as a row of its own.
 *
 * Run: npx tsx bench/search-libraries.ts   (prints a markdown table; some 2 minutes)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { components, count, create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { Results, SearchParamsFullText } from '@orama/orama';
import { Document } from 'flexsearch';
import MiniSearch from 'minisearch';
import { prefixAllowed, wordsIn } from '../src/i18n/text.js';
import { documents, indexTerm, LANGUAGES } from '../src/search/catalog-text.js';
import { searchTerm } from '../src/search/terms.js';
import { catalogHits, nearLanguages, queryWords, swaps, typoEdits } from '../src/search/text-match.js';

/** A catalogue document with each field as its index terms, space-joined ('' for a missing field). */
type Doc = { id: string; title: string; description: string };
const FIELDS = ['title', 'description'];
const split = (text: string) => text.split(' ').filter(Boolean);

interface Lib<I> {
  name: string;
  pkg: string;
  build(docs: Doc[]): I;
  exact(index: I, term: string): string[];
  /** Prefix search, plus `fuzzy` edits (or what the library has instead). */
  near(index: I, term: string, fuzzy: number): string[];
}
const lib = <I>(l: Lib<I>) => l as unknown as Lib<unknown>;

const EXACT = { prefix: false, fuzzy: false, tokenize: (s: string) => [s], processTerm: (s: string) => s };
const miniSearch = lib<MiniSearch<Doc>>({
  name: 'MiniSearch',
  pkg: 'minisearch',
  build(docs) {
    const index = new MiniSearch<Doc>({ fields: FIELDS, tokenize: split, processTerm: (t) => t });
    index.addAll(docs);
    return index;
  },
  exact: (ms, term) => ms.search(term, EXACT).map((r) => String(r.id)),
  near: (ms, term, fuzzy) => ms.search(term, { ...EXACT, prefix: true, fuzzy }).map((r) => String(r.id)),
});

/** search() allocates `limit` result slots (Array.from): the index's size is the least that returns all. */
const oramaSearch = (db: AnyOrama, params: SearchParamsFullText<AnyOrama>) =>
  (search(db, { ...params, properties: FIELDS, limit: count(db) }) as Results<Doc>).hits.map((h) => h.id);
const oramaRow = (name: string, exact: (db: AnyOrama, term: string) => string[]) =>
  lib<AnyOrama>({
    name,
    pkg: '@orama/orama',
    build(docs) {
      const tokenizer = { language: 'english', normalizationCache: new Map(), tokenize: split };
      const db = create({ schema: { title: 'string', description: 'string' }, components: { tokenizer } });
      void insertMultiple(db, docs); // synchronous without async hooks
      return db;
    },
    exact,
    // Orama matches prefixes unless `exact`; `tolerance` adds words within that Levenshtein distance.
    near: (db, term, tolerance) => oramaSearch(db, { term, tolerance }),
  });
const BM25 = { k: 1.2, b: 0.75, d: 0.5 };
const { getDocumentIdFromInternalId } = components.internalDocumentIDStore;
/** The radix tree's exact lookup: the index component search() calls, without search()'s text check. */
function radixExact(db: AnyOrama, term: string): string[] {
  const { index, data, tokenizer: t } = db;
  // prettier-ignore
  const found = index.search(data.index, term, t, undefined, FIELDS, true, 0, {}, BM25, count(db), undefined, 1);
  return found.map(([i]) => getDocumentIdFromInternalId(db.internalDocumentIDStore, i));
}

type Flex = { strict: Document<Doc>; forward: Document<Doc>; tolerant?: Document<Doc> };
function flexIndex(tokenize: 'strict' | 'forward' | 'tolerant', docs: Doc[]): Document<Doc> {
  const index = FIELDS.map((field) => ({ field: field as 'title', tokenize, encode: split }));
  const doc = new Document<Doc>({ document: { id: 'id', index } });
  for (const d of docs) doc.add(d);
  return doc;
}
/** The ids a term finds in any of `indexes` (a Document answers per field; `limit` is 100 by default). */
function flexIds(term: string, ...indexes: (Document<Doc> | undefined)[]): string[] {
  type Found = { result: (string | number)[] }[];
  const find = (index?: Document<Doc>) => (index?.search(term, { limit: 100_000 }) ?? []) as unknown as Found;
  const fields = indexes.flatMap(find);
  return [...new Set(fields.flatMap((f) => f.result.map(String)))];
}
const flexRow = (name: string, tolerant: boolean) =>
  lib<Flex>({
    name,
    pkg: 'flexsearch',
    build: (docs) => ({
      strict: flexIndex('strict', docs),
      forward: flexIndex('forward', docs),
      tolerant: tolerant ? flexIndex('tolerant', docs) : undefined,
    }),
    exact: (f, term) => flexIds(term, f.strict),
    near: (f, term, fuzzy) => flexIds(term, f.forward, fuzzy ? f.tolerant : undefined),
  });

const LIBS = [
  miniSearch,
  oramaRow('Orama, `exact: true`', (db, term) => oramaSearch(db, { term, exact: true })),
  oramaRow('Orama, radix exact', radixExact),
  flexRow('FlexSearch, strict + forward', false),
  flexRow('FlexSearch, + tolerant', true),
];
const NOTES: Record<string, string> = {
  MiniSearch: "production's library; near = `prefix` + `fuzzy: 1` (Levenshtein)",
  'Orama, `exact: true`': '`exact: true` re-tests text by `/\\b${term}\\b/` (ASCII \\b); near `tolerance: 1`',
  'Orama, radix exact': 'exact via `db.index.search(…, exact = true, …)`, the component under search()',
  'FlexSearch, strict + forward': 'no edit distance: near = prefixes (a `forward` index); 2 indexes a lang.',
  'FlexSearch, + tolerant': 'near + `tolerant` index: swaps after the 1st letter, 1 dropped; no other edit',
};

/** Every language's documents as production indexes them. */
function prepare(): Doc[][] {
  return LANGUAGES.map((lang) => {
    const t = (text = '') =>
      wordsIn(text, lang)
        .flatMap((w) => indexTerm(w, lang) ?? [])
        .join(' ');
    return [...documents(lang)].map((d) => ({ id: d.id, title: t(d.title), description: t(d.description) }));
  });
}

/** Child process: builds one library's 17 indexes, prints {ms, heapMb}. */
function child(name: string): void {
  const gc = globalThis.gc;
  if (!gc) throw new Error('the child needs node --expose-gc');
  const docs = prepare();
  const l = LIBS.find((x) => x.name === name)!;
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const built = docs.map((d) => l.build(d));
  const ms = performance.now() - t0;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  process.stdout.write(JSON.stringify({ ms, heapMb, indexes: built.length }));
}

function pct(q: number, xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Median build ms and heap MB of `runs` fresh child processes. */
function buildRuns(name: string, runs = 3): { ms: number; heapMb: number } {
  const args = [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), '--child', name];
  const results = Array.from({ length: runs }, () => {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) throw new Error(`child ${name} failed:\n${r.stderr}`);
    return JSON.parse(r.stdout) as { ms: number; heapMb: number };
  });
  const [ms, heapMb] = [results.map((r) => r.ms), results.map((r) => r.heapMb)];
  return { ms: pct(0.5, ms), heapMb: pct(0.5, heapMb) };
}

type Pair = { word: string; lang: string | undefined };
/** The shopper queries' words (text-match.ts `queryWords`), each with its query's language, once. */
function queryPairs(): Pair[] {
  const file = fileURLToPath(new URL('../test/search/shopper-queries.json', import.meta.url));
  const set = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { q: string; lang?: string }[]>;
  const seen = new Map<string, Pair>();
  for (const { q, lang } of [...set.tuning, ...set.held_out])
    for (const word of queryWords(q, lang)) seen.set(`${lang}|${word}`, { word, lang });
  return [...seen.values()];
}

/** text-match.ts `catalogHits` with library `l`: `lang/id` of every hit. */
function hitsOf(l: Lib<unknown>, indexes: unknown[], { word, lang }: Pair): Set<string> {
  const hits = new Set<string>();
  const near = nearLanguages(lang);
  const add = (i: number, ids: string[]) => ids.forEach((id) => hits.add(`${LANGUAGES[i]}/${id}`));
  let known = false;
  LANGUAGES.forEach((l2, i) => {
    const ids = l.exact(indexes[i], searchTerm(word, l2));
    add(i, ids);
    if (ids.length > 0 && near.includes(l2)) known = true;
  });
  if (known) return hits;
  const fuzzy = typoEdits(word);
  for (const l2 of near) {
    const i = LANGUAGES.indexOf(l2);
    if (prefixAllowed(word) || fuzzy > 0) add(i, l.near(indexes[i], searchTerm(word, l2), fuzzy));
    for (const s of fuzzy > 0 ? swaps(word) : []) add(i, l.exact(indexes[i], searchTerm(s, l2)));
  }
  return hits;
}

/**
 * Per-call µs of an exact search of every word in every language, and of prefix + 1 edit for the
 * words production searches so (typoEdits); and each exact search's sorted ids. Round 0 warms up.
 */
function lookups(l: Lib<unknown>, indexes: unknown[], words: string[], rounds = 5) {
  const [exact, near, found]: [number[], number[], string[]] = [[], [], []];
  const time = (out: number[], f: () => string[]) => {
    const t = process.hrtime.bigint();
    const ids = f();
    out.push(Number(process.hrtime.bigint() - t) / 1000);
    return ids;
  };
  for (let round = 0; round <= rounds; round += 1)
    for (const word of words)
      LANGUAGES.forEach((lang, i) => {
        const term = searchTerm(word, lang);
        const ids = time(round ? exact : [], () => l.exact(indexes[i], term));
        if (!round) found.push(ids.sort().join(' '));
        if (typoEdits(word) > 0) time(round ? near : [], () => l.near(indexes[i], term, 1));
      });
  return { exact, near, found };
}

const version = (pkg: string) =>
  (JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, 'utf8')) as { version: string }).version;
const fmt = (x: number, digits = 0) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const µs = (xs: number[]) => `${fmt(pct(0.5, xs), 1)} / ${fmt(pct(0.99, xs), 1)}`;
const equal = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const total = (hs: Set<string>[]) => fmt(hs.reduce((n, h) => n + h.size, 0));

function differences(a: Set<string>, b: Set<string>): string {
  const show = (x: Set<string>, y: Set<string>, only = [...x].filter((h) => !y.has(h))) =>
    `${only.length}${only.length ? ` (${only.slice(0, 3).join(', ')}${only.length > 3 ? ', …' : ''})` : ''}`;
  return `only MiniSearch ${show(a, b)}; only this ${show(b, a)}`;
}

function main(): void {
  process.chdir(fileURLToPath(new URL('..', import.meta.url)));
  const docs = prepare();
  const pairs = queryPairs();
  const words = [...new Set(pairs.map((p) => p.word))];
  let ref: { hits: Set<string>[]; found: string[] } | undefined;
  const rows: string[] = [];
  const diffs: string[] = [];
  for (const l of LIBS) {
    const build = buildRuns(l.name);
    const indexes = docs.map((d) => l.build(d));
    const { exact, near, found } = lookups(l, indexes, words);
    const hits = pairs.map((p) => hitsOf(l, indexes, p));
    const { hits: refHits, found: refFound } = (ref ??= { hits, found });
    const same = hits.map((h, i) => equal(h, refHits[i]));
    const agree = `${same.filter(Boolean).length} / ${pairs.length} (hits ${total(hits)} vs ${total(refHits)})`;
    const exactSame = found.filter((f, i) => f === refFound[i]).length;
    // The words of exact searches that find nothing where MiniSearch finds something.
    const lost = found.flatMap((f, i) => (!f && refFound[i] ? [words[(i / LANGUAGES.length) | 0]] : []));
    const nonAscii = lost.filter((w) => /[^ -~]/.test(w)).length;
    const lostNote = lost.length
      ? ` (${lost.length} find none where it finds some, ${nonAscii} not ASCII)`
      : '';
    const notes = `${NOTES[l.name]}; exact searches = MiniSearch's: ${fmt(exactSame)} / ${fmt(found.length)}${lostNote}`;
    const cells = [l.name, version(l.pkg), fmt(build.ms), fmt(build.heapMb, 1), µs(exact), µs(near)];
    rows.push(`| ${[...cells, agree, notes].join(' | ')} |`);
    const differing = pairs.flatMap((_, i) => (same[i] ? [] : [i]));
    for (const i of differing.slice(0, 4)) {
      const { word, lang } = pairs[i];
      diffs.push(`- ${l.name}: \`${word}\` (${lang ?? 'no lang'}): ${differences(refHits[i], hits[i])}`);
    }
    if (differing.length > 4) diffs.push(`- ${l.name}: ${differing.length - 4} more words differ`);
  }
  // The MiniSearch row on pre-tokenised text, against production's own indexes (ids without language).
  const production = pairs.filter((p, i) => {
    const ours = new Set([...ref!.hits[i]].map((h) => h.slice(h.indexOf('/') + 1)));
    return equal(ours, new Set(catalogHits(p.word, p.lang).keys()));
  }).length;
  const docCount = fmt(docs.reduce((n, d) => n + d.length, 0));
  console.log(`${docCount} documents in ${LANGUAGES.length} languages; ${pairs.length} query words (${words.length} distinct).
${fmt(ref!.found.length)} exact searches (word × language), ${fmt(ref!.found.filter(Boolean).length)} of them find something.
MiniSearch on pre-tokenised text = production \`catalogHits\` on ${production} / ${pairs.length} words.

| library | version | build ms | heap MB | exact µs p50 / p99 | near µs p50 / p99 | words = MiniSearch | notes |
| --- | --- | --: | --: | --: | --: | --: | --- |
${rows.join('\n')}

Differences from MiniSearch (language/document hits):

${diffs.join('\n')}`);
}

if (process.argv[2] === '--child') child(process.argv[3]);
else main();
