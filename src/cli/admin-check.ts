/**
 * Asks a running sandbox whether the replay's admin token is good, before any file runs: a sandbox
 * started with `SANDBOX_ADMIN_TOKEN` refuses every control call without it, and each file would
 * otherwise fail on its reset with the same 401. `GET /__sandbox/clock` of the default sandbox is
 * the probe: behind the token, and it changes nothing.
 * @returns one line saying what to do, or null when the token is fine (or the sandbox needs none,
 * or could not be reached: the files then report that themselves).
 */
export async function adminTokenProblem(url: string, token: string | undefined): Promise<string | null> {
  let status: number;
  try {
    const res = await fetch(new URL('/__sandbox/clock', url), {
      headers: token ? { 'X-Sandbox-Admin-Token': token } : {},
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    return null;
  }
  if (status !== 401) return null;
  return token
    ? `the sandbox at ${url} refused the admin token: set SANDBOX_ADMIN_TOKEN to the value the sandbox was started with`
    : `the sandbox at ${url} needs an admin token: set SANDBOX_ADMIN_TOKEN to the value it was started with`;
}
