import { ANY, CHAR, GlobNfa, tokenize } from './glob-nfa.js';

/**
 * Path patterns of sticky scenario scopes and of the journal filter: `*` matches within a segment
 * (no `/`), `**` across segments, anything else itself; a path with one trailing `/` more also
 * matches. Every match costs time linear in the path, whatever the pattern:
 * - a pattern without wildcards is compared as a string;
 * - a pattern whose every `*` lies before its first `**` or after its last (`/api/shop/listings/*`,
 *   `/api/**`, and a `**` segment then `/items/*`: every pattern one writes) is matched by the
 *   greedy algorithm with the engine's string search (`startsWith`, `indexOf`, `lastIndexOf`;
 *   each character of the path read a few times at most): from the
 *   start, every literal at its leftmost place (the one after a `*` within the segment it may
 *   use; one holding a `/` has a single place), then the literals between `**` leftmost, then
 *   the part after the last `**` from the end, at its rightmost places (path-glob.test.ts checks
 *   it against a table of every position pair);
 * - a pattern with a `*` between two `**` is matched by a bit-parallel automaton (glob-nfa.ts) once
 *   its literals are found in order: at most ⌈(m + 1) / 32⌉ word steps per character for a
 *   pattern of `m` positions, 7 for the longest pattern (200 characters).
 * On the reference machine the string search reads 0.1-25 ns a character (the most for a long
 * literal that overlaps itself, `aaa…ab` against a run of a's), the automaton 5-10 ns a word step;
 * the journal filter bounds what a read may spend in all (`MAX_FILTER_MS`, control/journal-query.ts).
 */

/** Longest pattern accepted (openapi.yaml says it where patterns are taken). */
export const MAX_PATTERN_LENGTH = 200;

/**
 * From the start of `path`: `runs[0]` there, each further run after a `*` at its leftmost place
 * (within the segment where the one before ended, or, holding a `/`, with its first `/` on that
 * segment's end). The end of the last, or -1. Only the first `length` characters count.
 */
function forward(path: string, runs: string[], length: number): number {
  if (runs[0].length > length || !path.startsWith(runs[0])) return -1;
  let end = runs[0].length;
  let slash = -1;
  for (let i = 1; i < runs.length; i += 1) {
    const run = runs[i];
    if (slash < end) {
      slash = path.indexOf('/', end);
      if (slash < 0 || slash >= length) slash = length;
    }
    const k = run.indexOf('/');
    let at: number;
    if (k < 0) {
      // Leftmost; found past the segment, there is none in it (and the match fails at once).
      at = path.indexOf(run, end);
      if (at < 0 || at + run.length > slash) return -1;
    } else {
      at = slash - k;
      if (slash === length || at < end || at + run.length > length || !path.startsWith(run, at)) return -1;
    }
    end = at + run.length;
  }
  return end;
}

/**
 * Whether `path[from, to)`, which holds no `/`, is exactly `runs` joined by `*`: the first run at
 * `from`, the last ending at `to`, each one between at its leftmost place.
 */
function spans(path: string, runs: string[], from: number, to: number): boolean {
  const first = runs[0];
  if (runs.length === 1) return to - from === first.length && path.startsWith(first, from);
  if (!path.startsWith(first, from)) return false;
  let end = from + first.length;
  for (let i = 1; i < runs.length - 1; i += 1) {
    const at = path.indexOf(runs[i], end);
    if (at < 0 || at + runs[i].length > to) return false;
    end = at + runs[i].length;
  }
  const last = runs[runs.length - 1];
  const at = to - last.length;
  return at >= end && path.startsWith(last, at);
}

/**
 * Whether the part after the last `**` ends the first `length` characters of `path`, starting at
 * `lower` or later. It holds no `**`, so its literal `/` are the path's last `/`, one for one:
 * `parts` (its text between them, each as runs between `*`) fall on the path's last segments, the
 * first on the end of a segment (at its leftmost start from `lower` on: the most room for the
 * rest), every other on a whole segment. Forward string search only: the engine's
 * `lastIndexOf` compares naively, `aaa…ab` against a run of a's in time of their product.
 */
function endsWith(path: string, parts: string[][], length: number, lower: number): boolean {
  const slashes: number[] = [];
  let at = length;
  for (let i = 1; i < parts.length; i += 1) {
    at = at > 0 ? path.lastIndexOf('/', at - 1) : -1;
    if (at < lower) return false;
    slashes.unshift(at);
  }
  for (let j = 1; j < parts.length; j += 1)
    if (!spans(path, parts[j], slashes[j - 1] + 1, j < slashes.length ? slashes[j] : length)) return false;
  const to = slashes.length > 0 ? slashes[0] : length;
  if (to < lower) return false;
  const from = Math.max(lower, to > 0 ? path.lastIndexOf('/', to - 1) + 1 : 0);
  const [first, ...rest] = parts[0];
  if (rest.length === 0) return to - first.length >= from && path.startsWith(first, to - first.length);
  const start = path.indexOf(first, from);
  return start >= 0 && start + first.length <= to && spans(path, ['', ...rest], start + first.length, to);
}

/** Runs (between `*`) split at their `/`: the text between two `/`, each as its runs. */
function partsOf(runs: string[]): string[][] {
  const parts: string[][] = [[]];
  for (const run of runs) {
    const pieces = run.split('/');
    parts[parts.length - 1].push(pieces[0]);
    for (const piece of pieces.slice(1)) parts.push([piece]);
  }
  return parts;
}

class PathPattern {
  /** The literal runs between wildcards, and the wildcards (`*` or `**`) between them. */
  private readonly runs: string[] = [''];
  private readonly wild: number[] = [];
  /** Runs before the first `**`, between `**`s (one each), after the last; undefined: no `**`. */
  private readonly first: string[];
  private readonly middle: string[] = [];
  private readonly last: string[][] | undefined;
  /** For a pattern with a `*` between two `**`. */
  private readonly nfa: GlobNfa | undefined;

  constructor(private readonly pattern: string) {
    const tokens = tokenize(pattern);
    tokens.kinds.forEach((kind, p) => {
      if (kind === CHAR) this.runs[this.runs.length - 1] += String.fromCharCode(tokens.codes[p]);
      else {
        this.wild.push(kind);
        this.runs.push('');
      }
    });
    const firstAny = this.wild.indexOf(ANY);
    const lastAny = this.wild.lastIndexOf(ANY);
    this.first = firstAny < 0 ? this.runs : this.runs.slice(0, firstAny + 1);
    this.last = firstAny < 0 ? undefined : partsOf(this.runs.slice(lastAny + 1));
    const between = firstAny < 0 ? [] : this.wild.slice(firstAny + 1, lastAny);
    if (between.some((w) => w !== ANY)) this.nfa = new GlobNfa(tokens);
    else this.middle = this.runs.slice(firstAny + 1, lastAny + 1);
  }

  get costly(): boolean {
    return this.nfa !== undefined;
  }

  matches(path: string): boolean {
    if (this.wild.length === 0) {
      return (
        path === this.pattern || (path.length === this.pattern.length + 1 && path === `${this.pattern}/`)
      );
    }
    const slash = path.endsWith('/');
    if (!this.nfa) return this.whole(path, path.length) || (slash && this.whole(path, path.length - 1));
    // The literals in order (a `*` taken as `**`): needed for a match, and found by string search.
    const literals = this.inOrder(path, path.length) || (slash && this.inOrder(path, path.length - 1));
    return literals && this.nfa.matches(path);
  }

  /** Whether the first `length` characters of `path` match (the pattern has no `*` between two `**`). */
  private whole(path: string, length: number): boolean {
    if (!this.last) {
      // No `**`: the last run ends the path, after a `*` that holds no `/`.
      const end = forward(path, this.runs.slice(0, -1), length);
      const tail = this.runs[this.runs.length - 1];
      const at = length - tail.length;
      if (end < 0 || at < end || !path.startsWith(tail, at)) return false;
      const slash = path.indexOf('/', end);
      return slash < 0 || slash >= at;
    }
    let end = forward(path, this.first, length);
    if (end < 0) return false;
    for (const run of this.middle) {
      const at = path.indexOf(run, end);
      if (at < 0 || at + run.length > length) return false;
      end = at + run.length;
    }
    return endsWith(path, this.last, length, end);
  }

  /** Whether the literals appear in order in the first `length` characters, anchored at both ends. */
  private inOrder(path: string, length: number): boolean {
    const { runs } = this;
    const head = runs[0];
    const tail = runs[runs.length - 1];
    const last = length - tail.length;
    if (last < head.length || !path.startsWith(head) || !path.startsWith(tail, last)) return false;
    let from = head.length;
    for (let i = 1; i < runs.length - 1; i += 1) {
      const at = path.indexOf(runs[i], from);
      if (at < 0 || at + runs[i].length > last) return false;
      from = at + runs[i].length;
    }
    return true;
  }
}

/** Compiled patterns, reused across requests (sticky switches match every request). */
const compiled = new Map<string, PathPattern>();
const MAX_COMPILED = 256;

function compile(pattern: string): PathPattern {
  let found = compiled.get(pattern);
  if (!found) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    found = new PathPattern(pattern);
    compiled.set(pattern, found);
  }
  return found;
}

/** Whether matching `pattern` may take the automaton (a `*` between two `**`): such patterns cost more. */
export function needsAutomaton(pattern: string): boolean {
  return compile(pattern).costly;
}

/**
 * Whether `path` matches `pattern` (`*` within a segment, `**` across, one trailing `/` allowed).
 * @example pathMatches('/api/shop/listings/*', '/api/shop/listings/abc') // true
 * @example pathMatches('/api/**', '/api/shop/cart') // true
 */
export function pathMatches(pattern: string, path: string): boolean {
  return compile(pattern).matches(path);
}
