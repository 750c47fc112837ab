// Bundles the CLI (dist/bin.js) into a few files after `tsc` has emitted dist/.
//
// Why: starting the CLI from tsc's output resolves and compiles about 1,000 files (our modules,
// express, the validator, ajv, pino, ...), which on a small machine is most of the start-up
// time. One ESM file, with the seeders (faker) split into a chunk loaded only when a world is
// seeded, makes the start from an existing data file several times cheaper to load.
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
 * import.meta.url)`). In the bundle every module shares one URL, so each use is rewritten to the
 * URL the module has in tsc's dist/ layout; the bundle and its chunks sit in dist/ itself.
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
  entryPoints: { bin: join(SRC, 'bin.ts') },
  outdir: join(ROOT, 'dist'),
  chunkNames: 'bin-[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [moduleUrls],
  // Loaded at run time with createRequire, only when used (pretty logs, YAML, the docs UI assets).
  external: ['pino-pretty', 'yaml', 'swagger-ui-dist'],
  // Bundled CommonJS dependencies call require() for Node's built-ins; ESM has none of its own.
  banner: {
    js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);",
  },
});
