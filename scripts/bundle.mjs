// Bundles the CLI after `tsc` has emitted dist/: dist/bin-bundle.cjs (the CLI and its
// dependencies) and dist/bin.js (the launcher that runs it through a V8 code cache).
//
// Why: starting the CLI from tsc's output resolves and compiles about 1,000 files (our modules,
// express, the validator, ajv, pino, ...), which on a small machine is most of the start-up
// time. One file makes the start from an existing data file several times cheaper to load, and
// compiling that one file is what the code cache saves (src/process/code-cache.ts): Node 20 can give V8
// a code cache only for a classic script (`vm.Script`), so the bundle is CommonJS, not ESM. The
// seeders (faker) are in it too (CommonJS has no chunks), but their modules only run, and their
// functions are only compiled, when a world is seeded.
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
 * import.meta.url)`). A CommonJS bundle has no `import.meta`, and in one bundle every module
 * would share one URL anyway, so each use is rewritten to the URL the module has in tsc's dist/
 * layout, from the bundle's own file (which sits in dist/ itself).
 */
const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const asBuilt = './' + relative(SRC, args.path).replace(/\.ts$/, '.js');
      const url = `new URL(${JSON.stringify(asBuilt)}, require('node:url').pathToFileURL(__filename)).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

const common = {
  outdir: join(ROOT, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: { 'bin-bundle': join(SRC, 'process', 'bin.ts') },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  plugins: [moduleUrls],
  // Loaded at run time with createRequire, only when used (pretty logs, YAML, the docs UI assets).
  external: ['pino-pretty', 'yaml', 'swagger-ui-dist'],
});

// The launcher replaces tsc's dist/bin.js (package.json `bin`); it has no dependencies.
await build({
  ...common,
  entryPoints: { bin: join(SRC, 'process', 'launch.ts') },
  format: 'esm',
});
