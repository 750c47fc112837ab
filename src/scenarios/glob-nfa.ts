/**
 * The bit-parallel automaton of a path pattern (path-glob.ts): one bit per pattern position, the
 * whole set of positions reached moved by a few word operations per character of the path (a
 * Shift-And automaton with wildcards). A match costs `⌈(m + 1) / 32⌉` words per character for a
 * pattern of `m` positions (at most 7 words for the longest pattern, 200 characters), whatever
 * the pattern and the path: no backtracking, no cache of states to thrash.
 */

/** A literal character. */
export const CHAR = 0;
/** `*`: any run of characters without `/`. */
export const STAR = 1;
/** `**`: any run of characters. */
export const ANY = 2;

/** A pattern as positions: the kind of each, and for a literal its character code. */
export interface Tokens {
  kinds: number[];
  codes: number[];
}

/** Splits a pattern into positions; a run of two or more `*` is one `**`. */
export function tokenize(pattern: string): Tokens {
  const kinds: number[] = [];
  const codes: number[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const code = pattern.charCodeAt(i);
    if (code !== 42 /* * */) {
      kinds.push(CHAR);
      codes.push(code);
      continue;
    }
    let run = 1;
    while (pattern.charCodeAt(i + 1) === 42) [run, i] = [run + 1, i + 1];
    kinds.push(run > 1 ? ANY : STAR);
    codes.push(0);
  }
  return { kinds, codes };
}

const SLASH = 1;

/**
 * The automaton. Bit `i` of the state: the first `i` positions are matched; bit `m`: the whole
 * pattern. Characters the pattern does not name share class 0, `/` is class 1.
 */
export class GlobNfa {
  /** 32-bit words per state. */
  readonly words: number;
  private readonly end: number;
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  /** Per class, the positions whose literal is that class (class × words). */
  private readonly literal: Int32Array;
  /** Positions that keep themselves on a character other than `/` (`*`, `**`), and on `/` (`**`). */
  private readonly loop: Int32Array;
  private readonly loopOnSlash: Int32Array;
  /** Wildcard positions: they may match nothing, so reaching one reaches the next too. */
  private readonly wild: Int32Array;
  private readonly start: Int32Array;

  constructor({ kinds, codes }: Tokens) {
    this.end = kinds.length;
    this.words = Math.ceil((this.end + 1) / 32);
    this.ascii[47 /* / */] = SLASH;
    let classes = 2;
    for (let p = 0; p < this.end; p += 1) {
      if (kinds[p] === CHAR && this.classOf(codes[p]) === 0) {
        if (codes[p] < 128) this.ascii[codes[p]] = classes;
        else this.other.set(codes[p], classes);
        classes += 1;
      }
    }
    const w = this.words;
    this.literal = new Int32Array(classes * w);
    this.loop = new Int32Array(w);
    this.loopOnSlash = new Int32Array(w);
    this.wild = new Int32Array(w);
    const set = (mask: Int32Array, at: number, p: number) => (mask[at + (p >>> 5)] |= 1 << (p & 31));
    for (let p = 0; p < this.end; p += 1) {
      if (kinds[p] === CHAR) set(this.literal, this.classOf(codes[p]) * w, p);
      else {
        set(this.loop, 0, p);
        set(this.wild, 0, p);
        if (kinds[p] === ANY) set(this.loopOnSlash, 0, p);
      }
    }
    this.start = new Int32Array(w);
    this.start[0] = 1;
    this.close(this.start);
  }

  private classOf(code: number): number {
    return code < 128 ? this.ascii[code] : (this.other.get(code) ?? 0);
  }

  /** Adds the positions after reached wildcards (one pass: two wildcards are never adjacent). */
  private close(state: Int32Array): void {
    let carry = 0;
    for (let i = 0; i < this.words; i += 1) {
      const x = state[i] & this.wild[i];
      state[i] |= (x << 1) | carry;
      carry = x >>> 31;
    }
  }

  private accepts(state: Int32Array): boolean {
    return (state[this.end >>> 5] & (1 << (this.end & 31))) !== 0;
  }

  /**
   * Whether the whole of `text` matches, or `text` less one trailing `/` does. Costs `words`
   * steps a character, stopping as soon as no position is left.
   */
  matches(text: string): boolean {
    if (this.words === 1) return this.matchesOneWord(text);
    const { words: w, ascii, other, literal, loop, loopOnSlash, wild } = this;
    const state = Int32Array.from(this.start);
    const last = text.length - 1;
    let acceptedBefore = false;
    let i = 0;
    for (; i <= last; i += 1) {
      if (i === last) acceptedBefore = this.accepts(state);
      const code = text.charCodeAt(i);
      const cls = code < 128 ? ascii[code] : (other.get(code) ?? 0);
      const kept = cls === SLASH ? loopOnSlash : loop;
      const at = cls * w;
      let carry = 0;
      let any = 0;
      for (let k = 0; k < w; k += 1) {
        const was = state[k];
        const moved = was & literal[at + k];
        const now = (moved << 1) | carry | (was & kept[k]);
        carry = moved >>> 31;
        any |= now;
        state[k] = now;
      }
      if (any === 0) break;
      carry = 0;
      for (let k = 0; k < w; k += 1) {
        const x = state[k] & wild[k];
        state[k] |= (x << 1) | carry;
        carry = x >>> 31;
      }
    }
    if (i <= last) return i === last && text.charCodeAt(i) === 47 && acceptedBefore;
    return this.accepts(state) || (text.endsWith('/') && acceptedBefore);
  }

  /** `matches` for patterns of at most 31 positions: the state is one integer. */
  private matchesOneWord(text: string): boolean {
    const { ascii, other, literal, start } = this;
    const loop = this.loop[0];
    const loopOnSlash = this.loopOnSlash[0];
    const wild = this.wild[0];
    const endBit = 1 << this.end;
    const last = text.length - 1;
    let state = start[0];
    let before = 0;
    let i = 0;
    for (; i <= last; i += 1) {
      const code = text.charCodeAt(i);
      const cls = code < 128 ? ascii[code] : (other.get(code) ?? 0);
      if (i === last) before = state;
      state = ((state & literal[cls]) << 1) | (state & (cls === SLASH ? loopOnSlash : loop));
      if (state === 0) break;
      state |= (state & wild) << 1;
    }
    const acceptedBefore = (before & endBit) !== 0;
    if (i <= last) return i === last && text.charCodeAt(i) === 47 && acceptedBefore;
    return (state & endBit) !== 0 || (text.endsWith('/') && acceptedBefore);
  }
}
