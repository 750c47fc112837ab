// Bundles the CLI after `tsc` has emitted dist/: dist/bin.js, the CLI (src/process/bin.ts) and its
// dependencies in one ES module.
//
// Why: starting the CLI from tsc's output resolves and compiles about 1,000 files (our modules,
// express, the validator, ajv, pino, ...), which on a small machine is most of the start-up
// time; one file starts about twice as fast. The seeders (faker) are in it too, but their
// functions are only compiled when a world is seeded.
// tsc stays the type checker and still emits dist/index.js and the .d.ts files for the library
// entry; only the CLI entry is replaced.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/**
 * Our modules find the package's files from their own URL (`new URL('../../openapi.yaml',
 * import.meta.url)`). In one bundle every module would share the bundle's URL, so each use is
 * rewritten to the URL the module has in tsc's dist/ layout, from the bundle's own (which sits in
 * dist/ itself).
 */
const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const asBuilt = './' + relative(SRC, args.path).replace(/\.ts$/, '.js');
      const url = `new URL(${JSON.stringify(asBuilt)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: { bin: join(SRC, 'process', 'bin.ts') },
  outdir: join(ROOT, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [moduleUrls],
  // The CommonJS dependencies in the bundle call `require` for Node's modules, which an ES module
  // does not have (the import is renamed: the bundle imports `createRequire` too).
  banner: {
    js: "import { createRequire as requireFrom } from 'node:module'; const require = requireFrom(import.meta.url);",
  },
  // Loaded at run time with createRequire, only when used (pretty logs, YAML, the docs UI assets).
  external: ['pino-pretty', 'yaml', 'swagger-ui-dist'],
});
