import { announceChange, onChange } from './api.js';
import { h, section, time } from './dom.js';

/** Sandbox time: shown ticking, advanced by a duration, set, frozen and unfrozen. */
export function mountClock(api) {
  const s = section('clock');
  const missing = api.missing(['GET /__sandbox/clock', 'POST /__sandbox/clock']);
  if (missing.length > 0) return s.fill(s.unavailable(missing));
  let state = null;
  let fetchedAt = 0;
  const now = h('div', { class: 'big', 'data-test': 'clock-now' }, '…');
  const badge = h('span', { class: 'badge', 'data-test': 'clock-frozen' }, '');
  const advanceInput = h('input', {
    value: '25h',
    size: 8,
    'aria-label': 'advance by',
    'data-test': 'clock-advance-input',
  });
  const setInput = h('input', { placeholder: '2026-06-01T00:00:00Z', size: 22, 'aria-label': 'set to' });
  const freezeButton = h(
    'button',
    { class: 'secondary', 'data-test': 'clock-freeze', onclick: () => change({ freeze: !state?.frozen }) },
    'Freeze',
  );

  async function change(body) {
    await s.run('Clock', async () => {
      show(await api.call('POST', '/__sandbox/clock', body));
      announceChange();
      return `Clock now ${time(state.now)}${state.frozen ? ' (frozen)' : ''}`;
    });
  }

  function show(next) {
    state = next;
    fetchedAt = Date.now();
    badge.textContent = state.frozen ? 'frozen' : 'running';
    badge.className = `badge ${state.frozen ? 'bad' : 'on'}`;
    freezeButton.textContent = state.frozen ? 'Unfreeze' : 'Freeze';
    tick();
  }

  // Ticks locally between reads, so the page does not poll the clock every second.
  function tick() {
    if (!state) return;
    const ms = Date.parse(state.now) + (state.frozen ? 0 : Date.now() - fetchedAt);
    now.textContent = time(new Date(ms).toISOString());
  }

  async function refresh() {
    try {
      show(await api.call('GET', '/__sandbox/clock'));
    } catch (err) {
      s.say(`Clock: ${err.message}`, 'error');
    }
  }

  s.fill(
    h('div', { class: 'row' }, now, badge),
    h(
      'div',
      { class: 'row' },
      ...['1h', '1d', '25h', '7d'].map((d) =>
        h('button', { class: 'secondary', onclick: () => change({ advance: d }) }, `+${d}`),
      ),
    ),
    h(
      'div',
      { class: 'row' },
      'Advance by',
      advanceInput,
      h(
        'button',
        { 'data-test': 'clock-advance', onclick: () => change({ advance: advanceInput.value }) },
        'Advance',
      ),
    ),
    h(
      'div',
      { class: 'row' },
      'Set to',
      setInput,
      h('button', { class: 'secondary', onclick: () => change({ set: setInput.value }) }, 'Set'),
      freezeButton,
    ),
  );
  window.setInterval(tick, 1000);
  window.setInterval(refresh, 30_000);
  onChange(refresh);
  return refresh();
}
