import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { ROUTER_OPTIONS } from '../contract/routing.js';

/** `public/ui` at the package root, resolved from this module (src/ or dist/). */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../public/ui', import.meta.url));

/**
 * The dashboard at `/__sandbox/ui`: plain HTML, CSS and JS modules shipped in the package, no
 * build step and no CDN. It only calls the control API, so it shows what a test could do.
 */
export function dashboardRouter(): Router {
  const router = express.Router(ROUTER_OPTIONS);
  router.get('/__sandbox/ui', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile('index.html', { root: DASHBOARD_DIR });
  });
  router.use(
    '/__sandbox/ui',
    express.static(DASHBOARD_DIR, { index: false, redirect: false, fallthrough: true, maxAge: 0 }),
  );
  return router;
}
