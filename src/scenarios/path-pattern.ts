import picomatch from 'picomatch';
import { ApiError } from '../contract/errors.js';

/**
 * Path patterns of sticky scenario scopes and of the journal filter, matched by picomatch: `*`
 * stands for part of one segment (as a whole last segment, at least one character), a `**` segment
 * for any number of whole segments, anything else for itself; wildcards never stand for a `.` or
 * `..` segment (picomatch's rule), and a path with one trailing `/` more also matches.
 *
 * picomatch compiles a pattern into a backtracking regular expression, so only patterns it
 * matches in time linear in the path, a few steps a character, are taken ({@link pathPatternProblem}):
 * - one `*` a segment: it can end in one place only, where the rest of its segment does, while
 *   two cost the square of the segment's length (`/a*a*a*a*b` against 16 KB of a's);
 * - one `**`: the part after it is tried from each `/` of the path, while each further `**`
 *   multiplies those tries (`/**\/a/**\/b` against 16 KB of `/a`);
 * - at most one `*` after the `**`, each being a loop tried anew at every `/`;
 * - at most {@link MAX_AFTER_WILDCARD} characters after a `*` to its segment's end, and after
 *   the `**`, as they are compared at every place the wildcard may end;
 * - no `\`: a pattern has no escapes, and picomatch, reading `\` as one, loops forever on runs of
 *   them at a pattern's end.
 */

/** Characters after a `*` (to its segment's end) or after a `**` (to the pattern's end). */
export const MAX_AFTER_WILDCARD = 32;

/** The sandbox handles the one trailing `/`; `*` may stand for a leading dot; no other syntax. */
const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  strictSlashes: true,
  nobrace: true,
  noextglob: true,
  nonegate: true,
  windows: false,
};

const LINEAR = 'so that matching stays linear in the path';

/** Why the `*` and `**` of a pattern are refused, or undefined. */
function wildcardProblem(pattern: string): string | undefined {
  if (pattern.includes('\\')) return 'holds a \\: a pattern has no escapes';
  const segments = pattern.split('/');
  const inside = segments.find((s) => s.includes('**') && s !== '**');
  if (inside !== undefined)
    return `has ** inside the segment "${inside}": ** stands for whole segments only (/api/**), * for part of one`;
  const twice = segments.find((s) => s !== '**' && s.indexOf('*') !== s.lastIndexOf('*'));
  if (twice !== undefined)
    return `has more than one * in the segment "${twice}": at most one a segment, ${LINEAR}`;
  const max = MAX_AFTER_WILDCARD;
  const long = segments.find((s) => s !== '**' && s.includes('*') && s.length - s.indexOf('*') > max + 1);
  if (long !== undefined)
    return `has more than ${max} characters after the * in "${long}": at most ${max}, each place the * may end compares them`;
  const any = segments.indexOf('**');
  if (any < 0) return undefined;
  if (segments.lastIndexOf('**') !== any) return `has more than one **: at most one a pattern, ${LINEAR}`;
  const after = segments.slice(any + 1);
  if (after.filter((s) => s.includes('*')).length > 1)
    return `has more than one * after its **: at most one, ${LINEAR}`;
  const tail = after.length === 0 ? '' : `/${after.join('/')}`;
  if (tail.length > max)
    return `has more than ${max} characters after its **: at most ${max}, they are tried from every / of the path`;
  return undefined;
}

/**
 * Why `pattern` is refused, in a sentence that names it, or undefined when it may be used: an
 * exact path always may (it is compared as a string), a pattern with wildcards by the rules above.
 * @example pathPatternProblem('/a*b*c') // 'path pattern "/a*b*c" has more than one * in the segment "a*b*c": …'
 */
export function pathPatternProblem(pattern: string): string | undefined {
  if (!pattern.includes('*')) return undefined;
  const problem = wildcardProblem(pattern);
  return problem === undefined ? undefined : `path pattern ${JSON.stringify(pattern)} ${problem}`;
}

/** Refuses (400) a pattern {@link pathPatternProblem} refuses, saying where it was given (`query.path`). */
export function checkPathPattern(pattern: string | undefined, where: string): void {
  const problem = pattern === undefined ? undefined : pathPatternProblem(pattern);
  if (problem !== undefined) throw new ApiError(400, `${where}: ${problem}`);
}

/**
 * Every character but `*` and `/` stands for itself: ASCII punctuation escaped (picomatch's other
 * syntax: `?`, `[`, `{`, `(`, `!`…), and control characters, as picomatch drops a bare NUL.
 */
function globOf(pattern: string): string {
  return pattern.replace(/[\0-)+-.:-@[\]^`{-\x7f]/g, '\\$&');
}

/** Compiled patterns, reused across requests (sticky switches match every request). */
const compiled = new Map<string, RegExp>();
const MAX_COMPILED = 256;

/**
 * The expression of a pattern less its leading `/` (the path is matched less its own): picomatch
 * takes a leading `**\/` for no segment or more, but `/**\/` at the start for one or more.
 */
function compile(pattern: string): RegExp {
  let found = compiled.get(pattern);
  if (!found) {
    const problem = pathPatternProblem(pattern);
    if (problem !== undefined) throw new Error(`${problem}: refused where patterns are taken`);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    found = picomatch.makeRe(globOf(pattern.replace(/^\//, '')), OPTIONS);
    compiled.set(pattern, found);
  }
  return found;
}

/**
 * Whether `path` matches `pattern`, a pattern {@link pathPatternProblem} takes (any other throws).
 * @example pathMatches('/api/shop/listings/*', '/api/shop/listings/abc') // true
 * @example pathMatches('/api/**', '/api/shop/cart') // true
 */
export function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*'))
    return path === pattern || (path.length === pattern.length + 1 && path === `${pattern}/`);
  const lead = pattern.startsWith('/');
  if (path.startsWith('/') !== lead) return false;
  const regex = compile(pattern);
  const rest = lead ? path.slice(1) : path;
  return regex.test(rest) || (rest.endsWith('/') && regex.test(rest.slice(0, -1)));
}
