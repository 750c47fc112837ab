import { announceChange, onChange } from './api.js';
import { h, listOf, section, time } from './dom.js';

/** Named snapshots (save, restore, delete) and reset to the seed, with a second click to confirm. */
export function mountSnapshots(api) {
  const s = section('snapshots');
  const canSnapshots = api.has('GET', '/__sandbox/snapshots') && api.has('POST', '/__sandbox/snapshots');
  const canReset = api.has('POST', '/__sandbox/reset');
  let armed = false;

  const resetButton = h(
    'button',
    { class: 'danger', 'data-test': 'reset', onclick: () => reset() },
    'Reset to the seed',
  );

  async function reset() {
    if (!armed) {
      armed = true;
      resetButton.textContent = 'Click again to reset everything';
      window.setTimeout(() => {
        armed = false;
        resetButton.textContent = 'Reset to the seed';
      }, 5000);
      return;
    }
    armed = false;
    resetButton.textContent = 'Reset to the seed';
    await s.run('Reset', async () => {
      const result = await api.call('POST', '/__sandbox/reset');
      announceChange();
      return `Reset to seed ${result?.seed ?? ''}; clock at ${time(result?.clock?.now)}`;
    });
  }

  async function act(label, method, url, body) {
    await s.run(label, async () => {
      await api.call(method, url, body);
      announceChange();
      return `${label}: done`;
    });
  }

  function snapshotRow(snap) {
    const name = typeof snap === 'string' ? snap : snap.name;
    const path = `/__sandbox/snapshots/${encodeURIComponent(name)}`;
    return h(
      'li',
      { 'data-snapshot': name },
      h(
        'div',
        { class: 'grow' },
        h('code', {}, name),
        ' ',
        h('span', { class: 'muted' }, time(snap.created_at)),
      ),
      h(
        'button',
        { class: 'secondary', onclick: () => act(`Restore ${name}`, 'POST', `${path}/restore`) },
        'Restore',
      ),
      api.has('DELETE', '/__sandbox/snapshots/{name}')
        ? h('button', { class: 'secondary', onclick: () => act(`Delete ${name}`, 'DELETE', path) }, 'Delete')
        : null,
    );
  }

  async function refresh() {
    const parts = [];
    if (canSnapshots) {
      try {
        const snaps = listOf(await api.call('GET', '/__sandbox/snapshots'), 'snapshots');
        const nameInput = h('input', {
          placeholder: 'before-checkout',
          size: 18,
          'aria-label': 'snapshot name',
        });
        parts.push(
          h(
            'div',
            { class: 'row' },
            nameInput,
            h(
              'button',
              {
                onclick: () =>
                  act(`Save ${nameInput.value}`, 'POST', '/__sandbox/snapshots', {
                    name: nameInput.value.trim(),
                  }),
              },
              'Save snapshot',
            ),
          ),
          snaps.length === 0
            ? h('p', { class: 'muted' }, 'No snapshots yet.')
            : h('ul', { class: 'plain' }, snaps.map(snapshotRow)),
        );
      } catch (err) {
        s.say(`Snapshots: ${err.message}`, 'error');
      }
    } else parts.push(s.unavailable(['GET /__sandbox/snapshots', 'POST /__sandbox/snapshots']));
    parts.push(canReset ? h('div', { class: 'row' }, resetButton) : s.unavailable(['POST /__sandbox/reset']));
    s.fill(...parts);
  }

  onChange(refresh);
  return refresh();
}
