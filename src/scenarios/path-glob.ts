/**
 * Path patterns of sticky scenario scopes and of the journal filter: `*` matches within a segment
 * (no `/`), `**` across segments, anything else itself; a path with one trailing `/` more also
 * matches. Matched by a DFA built lazily from the pattern's positions, one step per character, so
 * a match costs time linear in the path whatever the pattern: no backtracking regular expression
 * (`/**a**a**a…b` against a long path once blocked the process for a minute).
 */

/** Longest pattern accepted (openapi.yaml says it where patterns are taken). */
export const MAX_PATTERN_LENGTH = 200;

/**
 * DFA states kept per pattern of `m` positions: `4m + 16`, past which the cache starts again, so
 * memory stays bounded (patterns met so far reach fewer than `m` states).
 */
const maxStates = (positions: number) => 4 * positions + 16;

const CHAR = 0;
const STAR = 1;
const ANY = 2;

/** A pattern as positions: the kind of each, and for a literal its character class. */
interface Positions {
  kinds: Uint8Array;
  classes: Int32Array;
}

/** Character classes: 0 every character the pattern does not name, 1 `/`, then each literal. */
class Alphabet {
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  size = 2;

  constructor() {
    this.ascii['/'.charCodeAt(0)] = 1;
  }

  add(code: number): number {
    const known = this.of(code);
    if (known !== 0) return known;
    const cls = this.size++;
    if (code < 128) this.ascii[code] = cls;
    else this.other.set(code, cls);
    return cls;
  }

  of(code: number): number {
    return code < 128 ? this.ascii[code] : (this.other.get(code) ?? 0);
  }
}

function parse(pattern: string, alphabet: Alphabet): Positions {
  const kinds: number[] = [];
  const classes: number[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const code = pattern.charCodeAt(i);
    if (code !== 42 /* * */) {
      kinds.push(CHAR);
      classes.push(alphabet.add(code));
      continue;
    }
    let run = 1;
    while (pattern.charCodeAt(i + 1) === 42) [run, i] = [run + 1, i + 1];
    const kind = run > 1 ? ANY : STAR;
    // A star next to `**` adds nothing: one position stands for both.
    const last = kinds.length - 1;
    if (last >= 0 && kinds[last] !== CHAR) kinds[last] = Math.max(kinds[last], kind);
    else {
      kinds.push(kind);
      classes.push(0);
    }
  }
  return { kinds: Uint8Array.from(kinds), classes: Int32Array.from(classes) };
}

/**
 * One pattern's matcher. A state is the set of pattern positions reached (position `m`: the end);
 * positions before an active `**` are dropped, since `**` can do whatever they could. Transitions
 * are kept in one flat table (state × character class), filled as paths need them.
 */
class GlobDfa {
  private readonly alphabet = new Alphabet();
  private readonly pos: Positions;
  private readonly end: number;
  private readonly width: number;
  private sets: number[][] = [];
  private ids = new Map<string, number>();
  /** state × class → state; -1: not computed yet. */
  private next = new Int32Array(0);
  /** Per state: 1 it has reached the end, 2 it can reach nothing more (the empty set). */
  private flags = new Uint8Array(0);
  /** Counts the times the cache started again: a step computed across one is not kept. */
  private generation = 0;

  constructor(pattern: string) {
    this.pos = parse(pattern, this.alphabet);
    this.end = this.pos.kinds.length;
    this.width = this.alphabet.size;
    this.state(this.closure([0]));
  }

  /** The set with every position reachable without a character, from the last active `**` on. */
  private closure(set: number[]): number[] {
    const seen = new Set<number>();
    for (let p of set) {
      seen.add(p);
      while (p < this.end && this.pos.kinds[p] !== CHAR) seen.add(++p);
    }
    const sorted = [...seen].sort((a, b) => a - b);
    let from = 0;
    sorted.forEach((p, i) => {
      if (p < this.end && this.pos.kinds[p] === ANY) from = i;
    });
    return sorted.slice(from);
  }

  /** The id of a set's state, made when new; state 0 is where every match starts. */
  private state(set: number[]): number {
    const key = set.join(',');
    let id = this.ids.get(key);
    if (id !== undefined) return id;
    if (this.sets.length >= maxStates(this.end)) this.forget();
    id = this.sets.length;
    this.sets.push(set);
    this.ids.set(key, id);
    if ((id + 1) * this.width > this.next.length) this.grow(2 * (id + 1));
    this.flags[id] = set.length === 0 ? 2 : set.includes(this.end) ? 1 : 0;
    return id;
  }

  private grow(states: number): void {
    const next = new Int32Array(states * this.width).fill(-1);
    next.set(this.next);
    this.next = next;
    const flags = new Uint8Array(states);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** Starts the cache again with the start state alone (memory stays bounded). */
  private forget(): void {
    this.sets = this.sets.slice(0, 1);
    this.ids = new Map([[this.sets[0].join(','), 0]]);
    this.next.fill(-1);
    this.generation += 1;
  }

  private step(from: number, cls: number): number {
    const reached: number[] = [];
    for (const p of this.sets[from]) {
      if (p === this.end) continue;
      const kind = this.pos.kinds[p];
      if (kind === ANY || (kind === STAR && cls !== 1)) reached.push(p);
      else if (kind === CHAR && this.pos.classes[p] === cls) reached.push(p + 1);
    }
    const generation = this.generation;
    const to = this.state(this.closure(reached));
    if (generation === this.generation) this.next[from * this.width + cls] = to;
    return to;
  }

  matches(path: string): boolean {
    const { alphabet, width } = this;
    let state = 0;
    let acceptedBefore = false;
    for (let i = 0; i < path.length; i += 1) {
      const cls = alphabet.of(path.charCodeAt(i));
      acceptedBefore = this.flags[state] === 1;
      let to = this.next[state * width + cls];
      if (to < 0) to = this.step(state, cls);
      state = to;
      // No way on: only a trailing `/` after a whole match can still match.
      if (this.flags[state] === 2) return i === path.length - 1 && cls === 1 && acceptedBefore;
    }
    return this.flags[state] === 1 || (path.endsWith('/') && acceptedBefore);
  }
}

/** Compiled patterns, reused across requests (sticky switches match every request). */
const compiled = new Map<string, GlobDfa>();
const MAX_COMPILED = 64;

/**
 * Whether `path` matches `pattern` (`*` within a segment, `**` across, one trailing `/` allowed).
 * @example pathMatches('/api/shop/listings/*', '/api/shop/listings/abc') // true
 * @example pathMatches('/api/**', '/api/shop/cart') // true
 */
export function pathMatches(pattern: string, path: string): boolean {
  let dfa = compiled.get(pattern);
  if (!dfa) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    dfa = new GlobDfa(pattern);
    compiled.set(pattern, dfa);
  }
  return dfa.matches(path);
}
