// Fails when a type in src/ restates one generated from openapi.yaml (src/generated/api.ts)
// instead of naming it (src/contract/types.ts: Schema<'Listing'>, Body<'checkout'>, Query, Reply).
//
// What counts as restating, decided on the syntax alone (fast, no type checker):
// - an object type written out in src/ (an interface, or a type literal anywhere: an alias, a
//   parameter, a cast) whose property names are exactly those of an object type in the generated
//   file (a schema, an operation's parameters, body or answer, or any object nested in them), when
//   there are at least MIN_NAMES of them;
// - a union of string literals equal to a generated enum of at least MIN_NAMES values.
// An interface's names include those of the interfaces of src/ it extends. Naming a generated
// type, or adding fields to one (`Schema<'WalletTransaction'> & { user_id: string }`), is not
// restating. Shapes of two names are common and too weak a signal (`{ page, limit }`,
// `'monthly' | 'yearly'`). A shape that has a generated one's names by coincidence says so in a
// comment just above it: `// Not the contract's type: <why>`.
//
// Usage: tsx scripts/checks/restated-types.ts [root]   (a directory holding src/; default: this repo)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MIN_NAMES = 3;
export const GENERATED = 'src/generated/api.ts';
const EXEMPT = /Not the contract's type: \S/;

/** A shape written in src/ that restates a generated one. */
export interface Restatement {
  file: string;
  line: number;
  what: string;
  generated: string;
}

interface Written {
  kind: 'object' | 'enum';
  names: Set<string>;
  line: number;
  what: string;
}

/** Generated object shapes and string enums, by their sorted names, with where they are. */
export interface GeneratedShapes {
  objects: Map<string, string>;
  enums: Map<string, string>;
}

const nameOf = (name: ts.Node | undefined) =>
  name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
const keyOf = (names: Set<string>) => [...names].sort().join(',');

export function parse(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
}

/** Property names of a type literal or an interface (index signatures and methods aside). */
function propertyNames(members: ts.NodeArray<ts.TypeElement>): Set<string> {
  const names = new Set<string>();
  for (const m of members) {
    const name = ts.isPropertySignature(m) ? nameOf(m.name) : undefined;
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** The values of a union of string literals; undefined for any other type. */
function literalUnion(node: ts.Node): Set<string> | undefined {
  if (!ts.isUnionTypeNode(node)) return undefined;
  const values = new Set<string>();
  for (const t of node.types) {
    if (!ts.isLiteralTypeNode(t) || !ts.isStringLiteral(t.literal)) return undefined;
    values.add(t.literal.text);
  }
  return values;
}

/** Where a node sits in the generated file, e.g. `operations.checkout.requestBody.content`. */
function labelOf(node: ts.Node): string {
  const parts: string[] = [];
  for (let n = node.parent; n; n = n.parent) {
    const name = ts.isPropertySignature(n) || ts.isInterfaceDeclaration(n) ? nameOf(n.name) : undefined;
    if (name !== undefined) parts.unshift(name);
  }
  return parts.join('.');
}

/** Every object shape and string enum of the generated file. */
export function generatedShapes(file: ts.SourceFile): GeneratedShapes {
  const shapes: GeneratedShapes = { objects: new Map(), enums: new Map() };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
      const names = propertyNames(node.members);
      if (names.size >= MIN_NAMES && !shapes.objects.has(keyOf(names)))
        shapes.objects.set(keyOf(names), labelOf(node));
    }
    const values = literalUnion(node);
    if (values && values.size >= MIN_NAMES && !shapes.enums.has(keyOf(values)))
      shapes.enums.set(keyOf(values), labelOf(node));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return shapes;
}

/** True when a comment just above the node (or above the statement or member holding it) exempts it. */
function exempt(file: ts.SourceFile, node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    const comments = ts.getLeadingCommentRanges(file.text, n.pos) ?? [];
    if (comments.some((c) => EXEMPT.test(file.text.slice(c.pos, c.end)))) return true;
    if (ts.isStatement(n) || ts.isTypeElement(n) || ts.isClassElement(n)) return false;
  }
  return false;
}

/** The object shapes and string unions written out in one file (`interfaces`: for `extends`). */
function writtenShapes(file: ts.SourceFile, interfaces: Map<string, Set<string>>): Written[] {
  const found: Written[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (!exempt(file, node)) {
      if (ts.isInterfaceDeclaration(node)) {
        const names = propertyNames(node.members);
        for (const clause of node.heritageClauses ?? [])
          for (const base of clause.types) {
            const parent = ts.isIdentifier(base.expression)
              ? interfaces.get(base.expression.text)
              : undefined;
            for (const name of parent ?? []) names.add(name);
          }
        found.push({ kind: 'object', names, line: line(node), what: `interface ${node.name.text}` });
      } else if (ts.isTypeLiteralNode(node)) {
        found.push({
          kind: 'object',
          names: propertyNames(node.members),
          line: line(node),
          what: 'type literal',
        });
      } else {
        const values = literalUnion(node);
        if (values) found.push({ kind: 'enum', names: values, line: line(node), what: 'string union' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every restatement in `files` of a shape of `generated`. */
export function restatements(files: ts.SourceFile[], generated: GeneratedShapes): Restatement[] {
  const interfaces = new Map<string, Set<string>>();
  for (const file of files)
    ts.forEachChild(file, (node) => {
      if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, propertyNames(node.members));
    });
  const found: Restatement[] = [];
  for (const file of files)
    for (const shape of writtenShapes(file, interfaces)) {
      if (shape.names.size < MIN_NAMES) continue;
      const table = shape.kind === 'object' ? generated.objects : generated.enums;
      const match = table.get(keyOf(shape.names));
      if (match) found.push({ file: file.fileName, line: shape.line, what: shape.what, generated: match });
    }
  return found;
}

/** The TypeScript files under `dir`, tests aside. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Checks the src/ of a tree; returns what restates a generated type. */
export function checkTree(root: string): Restatement[] {
  const generatedPath = join(root, GENERATED);
  const read = (path: string) => parse(relative(root, path), readFileSync(path, 'utf8'));
  const files = sourceFiles(join(root, 'src'))
    .filter((path) => path !== generatedPath)
    .map(read);
  return restatements(files, generatedShapes(read(generatedPath)));
}

function main(): void {
  const root = process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url));
  const found = checkTree(root);
  for (const r of found)
    console.error(
      `${r.file}:${r.line}: ${r.what} restates ${r.generated} of ${GENERATED}; ` +
        "name it instead (src/contract/types.ts), or say above it: // Not the contract's type: <why>",
    );
  if (found.length > 0) {
    console.error(`${found.length} restated type(s)`);
    process.exit(1);
  }
  console.log(`No type in src/ restates one of ${GENERATED}.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
