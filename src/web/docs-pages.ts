import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Request, type Router } from 'express';
import type * as Yaml from 'yaml';
import { baseUrl } from '../api/base-url.js';
import { loadSpec } from '../contract/spec.js';
import { ROUTER_OPTIONS } from '../contract/routing.js';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads; nothing else of the package is served. */
const SWAGGER_FILES = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Marketplace Sandbox API docs</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  <style>body { margin: 0 } .sandbox-bar { font: 14px system-ui, sans-serif; padding: 8px 16px; background: #1f2937; color: #f9fafb }
  .sandbox-bar a { color: #93c5fd; margin-left: 16px }</style>
</head>
<body>
  <div class="sandbox-bar">Marketplace Sandbox — "Try it out" calls this sandbox.
    Test accounts: <code>buyer@sandbox.test</code> / <code>buyer-pass-123</code>
    (or Authorize with the API key <code>mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f</code>).
    <a href="/__sandbox/ui">Dashboard</a><a href="/openapi.yaml">openapi.yaml</a><a href="/openapi.json">openapi.json</a></div>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// Separate file rather than an inline script, so a strict Content-Security-Policy can be added later.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  filter: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
});
`;

/** The contract with `servers` pointing at the address the request came in on, so "try it" hits this sandbox. */
export function specFor(req: Request): Record<string, unknown> {
  const spec = structuredClone(loadSpec()) as unknown as Record<string, unknown>;
  spec.servers = [{ url: baseUrl(req), description: 'this sandbox' }];
  return spec;
}

/** `/docs` (Swagger UI from node_modules, no CDN), `/openapi.yaml`, `/openapi.json`. */
export function docsRouter(): Router {
  const router = express.Router(ROUTER_OPTIONS);
  const page = (body: string, type: string) => (_req: Request, res: express.Response) => {
    res.type(type).set('Cache-Control', 'no-cache').send(body);
  };
  router.get('/docs', page(DOCS_PAGE, 'html'));
  router.get('/docs/init.js', page(DOCS_INIT, 'js'));
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!SWAGGER_FILES.has(file)) return next();
    res.set('Cache-Control', 'public, max-age=86400').sendFile(file, { root: swaggerDir });
  });
  router.get('/openapi.json', (req, res) => {
    res.json(specFor(req));
  });
  router.get('/openapi.yaml', (req, res) => {
    // The YAML writer is loaded on the first /openapi.yaml request, not at start-up.
    const { stringify } = createRequire(import.meta.url)('yaml') as typeof Yaml;
    res.type('application/yaml').send(stringify(specFor(req)));
  });
  return router;
}
