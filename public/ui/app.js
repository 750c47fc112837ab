// The dashboard's entry: loads the contract, then mounts every section. Each section checks
// that its control calls exist in this build and says "not available" when they do not.
import { ADMIN_HEADER, Api } from './api.js';
import { h } from './dom.js';
import { mountAccounts } from './accounts.js';
import { mountClock } from './clock.js';
import { mountJournal } from './journal.js';
import { mountPayments } from './payments.js';
import { mountScenarios } from './scenarios.js';
import { mountSnapshots } from './snapshots.js';

async function mountHeader(api) {
  const health = document.getElementById('health');
  try {
    const info = await api.call('GET', '/__sandbox/health');
    health.textContent = `v${info.version} · seed ${info.seed}`;
  } catch (err) {
    health.textContent = `health: ${err.message}`;
  }
  const identity = document.getElementById('identity');
  if (api.has('GET', '/__sandbox/sandboxes')) {
    const input = h('input', {
      value: api.sandboxId,
      placeholder: 'default',
      'aria-label': 'sandbox id',
      onchange: (e) => reload(() => api.setSandboxId(e.target.value)),
    });
    identity.append(
      h('label', { title: 'Sent as X-Sandbox-Id: act on an isolated sandbox' }, 'Sandbox id ', input),
    );
  }
  if (api.adminToken) {
    const forget = h(
      'button',
      { 'data-test': 'admin-forget', onclick: () => reload(() => api.setAdminToken('')) },
      'forget',
    );
    identity.append(' ', h('span', { title: `Sent as ${ADMIN_HEADER}` }, 'Admin token set '), forget);
  }
}

/**
 * The sandbox runs with SANDBOX_ADMIN_TOKEN and this tab has no (good) token: ask for it once; it
 * is kept in the tab's session storage and sent with every control call.
 */
function askForToken(api, access) {
  const input = h('input', { type: 'password', 'aria-label': 'admin token', 'data-test': 'admin-token' });
  const form = h(
    'form',
    {
      class: 'card wide',
      'data-test': 'admin-prompt',
      onsubmit: (e) => {
        e.preventDefault();
        reload(() => api.setAdminToken(input.value));
      },
    },
    h('h2', {}, 'Admin token'),
    h(
      'p',
      { class: access === 'refused' ? 'status error' : 'status' },
      access === 'refused'
        ? 'The sandbox refused that token: enter the value of its SANDBOX_ADMIN_TOKEN.'
        : `This sandbox runs with SANDBOX_ADMIN_TOKEN: enter it once for this tab (sent as ${ADMIN_HEADER}).`,
    ),
    h('label', {}, 'Token ', input),
    ' ',
    h('button', { type: 'submit', 'data-test': 'admin-submit' }, 'Use this token'),
  );
  document.querySelector('main').replaceChildren(form);
  input.focus();
}

function reload(change) {
  change();
  window.location.reload();
}

async function main() {
  const api = new Api();
  await api.load();
  window.sandboxApi = api;
  await mountHeader(api);
  const access = await api.adminAccess();
  if (access !== 'ok') {
    askForToken(api, access);
    document.body.dataset.ready = 'token';
    return;
  }
  await Promise.all(
    [mountAccounts, mountScenarios, mountClock, mountPayments, mountSnapshots, mountJournal].map((mount) =>
      mount(api),
    ),
  );
  document.body.dataset.ready = 'true';
}

main().catch((err) => {
  document.body.prepend(h('p', { class: 'status error' }, `The dashboard could not start: ${err.message}`));
});
