// Talks to the sandbox's control API. Which calls exist is read from /openapi.json, so a
// section whose endpoints this build lacks says so instead of failing.

/** An answer that was not 2xx; `message` is the sandbox's `{"error"}` text when there is one. */
export class CallError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The header the control API wants when the sandbox runs with SANDBOX_ADMIN_TOKEN. */
export const ADMIN_HEADER = 'X-Sandbox-Admin-Token';

/** Where the admin token is kept: this tab's session storage, never the disk-backed local storage. */
const TOKEN_KEY = 'sandbox.adminToken';

export class Api {
  constructor() {
    this.operations = new Map();
    this.spec = null;
    // A link from the provider page names its sandbox (`?sandbox_id=`): the dashboard opens on it.
    const linked = new window.URLSearchParams(window.location.search).get('sandbox_id');
    if (linked !== null) window.localStorage.setItem('sandbox.id', linked);
    this.sandboxId = window.localStorage.getItem('sandbox.id') ?? '';
    this.adminToken = window.sessionStorage.getItem(TOKEN_KEY) ?? '';
  }

  /**
   * Whether the control API takes this tab's token (or needs none): 'ok', 'missing' or 'refused'.
   * Asked once before the sections mount, so they never each say the header is missing.
   */
  async adminAccess() {
    const headers = this.adminToken ? { [ADMIN_HEADER]: this.adminToken } : {};
    const res = await fetch('/__sandbox/clock', { headers });
    if (res.status !== 401) return 'ok';
    return this.adminToken ? 'refused' : 'missing';
  }

  /** Loads the contract: the list of operations. */
  async load() {
    const res = await fetch('/openapi.json');
    this.spec = await res.json();
    for (const [path, item] of Object.entries(this.spec.paths ?? {})) {
      for (const method of METHODS)
        if (item[method]) this.operations.set(`${method.toUpperCase()} ${path}`, item[method]);
    }
  }

  /** True when the contract has this operation, e.g. `has('POST', '/__sandbox/wallets/{email}/fund')`. */
  has(method, path) {
    return this.operations.has(`${method} ${path}`);
  }

  /** The operations of `needs` ("METHOD /path") this build lacks. */
  missing(needs) {
    return needs.filter((n) => !this.operations.has(n));
  }

  /** The JSON request-body schema of an operation, or null. */
  bodySchema(method, path) {
    const op = this.operations.get(`${method} ${path}`);
    const schema = op?.requestBody?.content?.['application/json']?.schema;
    return schema?.$ref ? this.resolve(schema.$ref) : (schema ?? null);
  }

  resolve(ref) {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, key) => node?.[key], this.spec);
  }

  setSandboxId(id) {
    this.sandboxId = id.trim();
    window.localStorage.setItem('sandbox.id', this.sandboxId);
  }

  setAdminToken(token) {
    this.adminToken = token.trim();
    if (this.adminToken) window.sessionStorage.setItem(TOKEN_KEY, this.adminToken);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  }

  /** Calls the sandbox; returns the parsed JSON body or throws a CallError. */
  async call(method, url, body) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.sandboxId) headers['X-Sandbox-Id'] = this.sandboxId;
    if (this.adminToken) headers[ADMIN_HEADER] = this.adminToken;
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    if (!res.ok) throw new CallError(res.status, data?.error ?? `${method} ${url} answered ${res.status}`);
    return data;
  }
}

/** Tells every section that sandbox state changed (after a reset, a restore, a payment…). */
export function announceChange() {
  document.dispatchEvent(new window.CustomEvent('sandbox:changed'));
}

export function onChange(listener) {
  document.addEventListener('sandbox:changed', listener);
}
