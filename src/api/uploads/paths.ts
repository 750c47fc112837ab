import { DEFAULT_SANDBOX_ID } from '../../world/sandbox-id.js';

/**
 * The path an upload is served at. A named sandbox's carries its id as `sandbox_id`: a browser
 * that loads the image sends no `X-Sandbox-Id`, and the URL must still name that sandbox's bytes
 * (and a proxy in front of several replicas can route it by that argument).
 * @example uploadPath('default', 'a.png') // '/uploads/a.png'
 * @example uploadPath('ci-7', 'a.png') // '/uploads/a.png?sandbox_id=ci-7'
 */
export function uploadPath(sandboxId: string, name: string): string {
  return sandboxId === DEFAULT_SANDBOX_ID ? `/uploads/${name}` : `/uploads/${name}?sandbox_id=${sandboxId}`;
}

/**
 * The file name of an upload URL or path (absolute or not) in sandbox `sandboxId`, else null. A
 * URL that names another sandbox is not this sandbox's upload, whatever its name; one that names
 * none means the caller's sandbox, as `GET /uploads/{name}` reads it.
 * @example uploadNameIn('ci-7', 'http://127.0.0.1:3000/uploads/a.png?sandbox_id=ci-7') // 'a.png'
 * @example uploadNameIn('ci-7', '/uploads/a.png?sandbox_id=ci-8') // null
 */
export function uploadNameIn(sandboxId: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://sandbox.invalid');
  } catch {
    return null;
  }
  if (!/^https?:\/\//i.test(url) && !url.startsWith('/uploads/')) return null;
  const match = /^\/uploads\/([A-Za-z0-9._-]+)$/.exec(parsed.pathname);
  if (!match) return null;
  const params = [...parsed.searchParams.keys()];
  const named = parsed.searchParams.get('sandbox_id') ?? sandboxId;
  if (params.some((p) => p !== 'sandbox_id') || params.length > 1 || named !== sandboxId) return null;
  return match[1];
}
