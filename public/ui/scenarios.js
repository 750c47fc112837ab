import { announceChange, onChange } from './api.js';
import { h, listOf, section } from './dom.js';

const nameOf = (entry) =>
  typeof entry === 'string' ? entry : (entry.name ?? entry.scenario ?? entry.expression ?? entry.id);

/** The body field that names the scenario, read from the contract (falls back to `name`). */
function nameField(api) {
  const schema = api.bodySchema('POST', '/__sandbox/scenarios');
  const props = Object.keys(schema?.properties ?? {});
  for (const candidate of ['name', 'scenario', 'expression']) if (props.includes(candidate)) return candidate;
  return schema?.required?.[0] ?? 'name';
}

/** Sticky scenarios: every scenario with an on/off switch, what is active, and scenario files. */
export function mountScenarios(api) {
  const s = section('scenarios');
  const missing = api.missing(['GET /__sandbox/scenarios', 'POST /__sandbox/scenarios']);
  if (missing.length > 0) return s.fill(s.unavailable(missing));
  const field = nameField(api);
  let active = [];

  async function switchOn(name) {
    await api.call('POST', '/__sandbox/scenarios', { [field]: name });
    announceChange();
    return `${name} is on`;
  }

  async function switchOff(name) {
    const matching = active.filter((a) => nameOf(a) === name && a.id !== undefined);
    for (const a of matching) await api.call('DELETE', `/__sandbox/scenarios/${encodeURIComponent(a.id)}`);
    announceChange();
    return `${name} is off`;
  }

  function switchRow(entry) {
    const name = nameOf(entry);
    const on = active.some((a) => nameOf(a) === name);
    const toggle = h('input', {
      type: 'checkbox',
      checked: on,
      'data-test': `scenario-${name}`,
      'aria-label': `switch ${name}`,
      onchange: (e) => s.run(name, () => (e.target.checked ? switchOn(name) : switchOff(name))),
    });
    const about = typeof entry === 'string' ? '' : (entry.description ?? '');
    const activate =
      typeof entry !== 'string' && entry.file && api.has('POST', '/__sandbox/scenarios/{name}/activate')
        ? h(
            'button',
            { class: 'secondary', onclick: () => s.run(name, () => activateFile(name)) },
            'Activate file',
          )
        : null;
    return h(
      'li',
      {},
      toggle,
      h('div', { class: 'grow' }, h('code', {}, name), h('div', { class: 'muted' }, about)),
      activate,
    );
  }

  async function activateFile(name) {
    await api.call('POST', `/__sandbox/scenarios/${encodeURIComponent(name)}/activate`);
    announceChange();
    return `${name} activated`;
  }

  function activeRow(entry) {
    const details = Object.entries(entry)
      .filter(([k]) => !['id', 'name', 'scenario', 'expression'].includes(k))
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
      .join(', ');
    return h(
      'li',
      { 'data-test': `active-${nameOf(entry)}` },
      h('div', { class: 'grow' }, h('code', {}, nameOf(entry)), h('div', { class: 'muted' }, details)),
      entry.id === undefined
        ? null
        : h(
            'button',
            { class: 'secondary', onclick: () => s.run('Switch off', () => switchOff(nameOf(entry))) },
            'Switch off',
          ),
    );
  }

  async function refresh() {
    try {
      active = listOf(await api.call('GET', '/__sandbox/scenarios'), 'scenarios', 'active');
      let known = [];
      if (api.has('GET', '/__sandbox/scenarios/catalog')) {
        const data = await api.call('GET', '/__sandbox/scenarios/catalog');
        known = listOf(data, 'scenarios', 'switches', 'names');
        known = known.concat(
          listOf(data?.files ?? []).map((f) =>
            typeof f === 'string' ? { name: f, file: f } : { ...f, file: f.file ?? f.name },
          ),
        );
      }
      const custom = h('input', {
        placeholder: 'latency=800',
        size: 22,
        'aria-label': 'scenario expression',
        'data-test': 'scenario-custom',
      });
      s.fill(
        h('h3', {}, 'Active'),
        active.length === 0
          ? h('p', { class: 'muted', 'data-test': 'scenarios-none' }, 'No sticky scenario is on.')
          : h('ul', { class: 'plain' }, active.map(activeRow)),
        h(
          'div',
          { class: 'row' },
          custom,
          h(
            'button',
            { onclick: () => s.run('Switch on', () => switchOn(custom.value.trim())) },
            'Switch on',
          ),
          api.has('DELETE', '/__sandbox/scenarios')
            ? h('button', { class: 'secondary', onclick: () => s.run('Clear', clearAll) }, 'Clear all')
            : null,
        ),
        h('h3', {}, 'Every scenario'),
        known.length === 0
          ? h('p', { class: 'muted' }, 'No scenario list in this build.')
          : h('ul', { class: 'plain scroll' }, known.map(switchRow)),
      );
    } catch (err) {
      s.say(`Scenarios: ${err.message}`, 'error');
    }
  }

  async function clearAll() {
    await api.call('DELETE', '/__sandbox/scenarios');
    announceChange();
    return 'Every sticky scenario is off';
  }

  onChange(refresh);
  return refresh();
}
