// The dashboard's entry: loads the contract, then mounts every section. Each section checks
// that its control calls exist in this build and says "not available" when they do not.
import { Api } from './api.js';
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
  if (api.adminHeader) {
    const input = h('input', {
      type: 'password',
      value: api.adminToken,
      'aria-label': 'admin token',
      onchange: (e) => reload(() => api.setAdminToken(e.target.value)),
    });
    identity.append(' ', h('label', { title: `Sent as ${api.adminHeader}` }, 'Admin token ', input));
  }
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
