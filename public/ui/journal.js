import { h, listOf, section, time } from './dom.js';

/** The live request journal: filters, a live toggle, and one request opened in full. */
export function mountJournal(api) {
  const s = section('journal');
  const missing = api.missing(['GET /__sandbox/requests']);
  if (missing.length > 0) return s.fill(s.unavailable(missing));
  const canOpen = api.has('GET', '/__sandbox/requests/{id}');
  let selected = null;

  const method = h(
    'select',
    { 'aria-label': 'method', 'data-test': 'journal-method' },
    ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => h('option', { value: m }, m || 'any method')),
  );
  const path = h('input', {
    placeholder: 'path, e.g. /api/shop',
    size: 24,
    'aria-label': 'path',
    'data-test': 'journal-path',
  });
  const status = h('input', {
    placeholder: 'status',
    size: 5,
    'aria-label': 'status',
    'data-test': 'journal-status',
  });
  const live = h('input', { type: 'checkbox', checked: true, 'aria-label': 'live' });
  // The dashboard's own polling would otherwise fill the journal view.
  const hideControl = h('input', {
    type: 'checkbox',
    checked: true,
    'aria-label': 'hide control API calls',
    'data-test': 'journal-hide-control',
  });
  const rows = h('tbody', { 'data-test': 'journal-rows' });
  const detail = h('div', { 'data-test': 'journal-detail' });

  function query() {
    const params = new window.URLSearchParams({ limit: hideControl.checked ? '200' : '50' });
    if (method.value) params.set('method', method.value);
    if (path.value.trim()) params.set('path', path.value.trim());
    if (/^\d{3}$/.test(status.value.trim())) params.set('status', status.value.trim());
    return `/__sandbox/requests?${params}`;
  }

  async function open(entry) {
    selected = entry.id;
    for (const tr of rows.children) tr.classList.toggle('selected', tr.dataset.id === String(entry.id));
    let full = entry;
    if (canOpen) {
      try {
        full = await api.call('GET', `/__sandbox/requests/${encodeURIComponent(entry.id)}`);
      } catch (err) {
        s.say(`Request ${entry.id}: ${err.message}`, 'error');
      }
    }
    detail.replaceChildren(
      h('h3', {}, `${full.method} ${full.path} → ${full.status}`),
      h('pre', { 'data-test': 'journal-detail-json' }, JSON.stringify(full, null, 2)),
    );
  }

  /** What the sandbox noticed (X-Sandbox-Warning) or why it refused (X-Sandbox-Error-Detail). */
  function notesOf(entry) {
    return [...(entry.warnings ?? []), ...(entry.error_detail ? [entry.error_detail] : [])].join('; ');
  }

  function row(entry) {
    const query =
      entry.query && Object.keys(entry.query).length > 0 ? `?${new window.URLSearchParams(entry.query)}` : '';
    return h(
      'tr',
      {
        class: `clickable${entry.id === selected ? ' selected' : ''}`,
        'data-id': entry.id,
        'data-path': entry.path,
        onclick: () => open(entry),
      },
      h('td', {}, time(entry.at)),
      h('td', {}, entry.method),
      h('td', {}, h('code', {}, `${entry.path}${query}`)),
      h('td', {}, h('span', { class: `badge ${entry.status >= 400 ? 'bad' : 'on'}` }, entry.status)),
      h('td', {}, entry.duration_ms === undefined ? '' : `${entry.duration_ms} ms`),
      h('td', {}, entry.scenario ?? ''),
      h('td', { class: 'muted', 'data-test': 'journal-notes' }, notesOf(entry)),
    );
  }

  async function refresh() {
    try {
      let entries = listOf(await api.call('GET', query()), 'requests');
      if (hideControl.checked) entries = entries.filter((e) => !String(e.path).startsWith('/__sandbox'));
      rows.replaceChildren(...entries.slice(0, 50).map(row));
    } catch (err) {
      s.say(`Journal: ${err.message}`, 'error');
    }
  }

  async function clear() {
    await s.run('Clear journal', async () => {
      await api.call('DELETE', '/__sandbox/requests');
      await refresh();
      return 'Journal cleared';
    });
  }

  for (const input of [method, path, status, hideControl]) input.addEventListener('change', refresh);
  s.fill(
    h(
      'div',
      { class: 'row' },
      method,
      path,
      status,
      h('label', {}, hideControl, ' hide /__sandbox calls'),
      h('label', {}, live, ' live'),
      h('button', { class: 'secondary', onclick: refresh }, 'Refresh'),
      api.has('DELETE', '/__sandbox/requests')
        ? h('button', { class: 'secondary', onclick: clear }, 'Clear')
        : null,
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['at', 'method', 'path', 'status', 'took', 'scenario', 'notes'].map((t) => h('th', {}, t)),
          ),
        ),
        rows,
      ),
    ),
    detail,
  );
  window.setInterval(() => {
    if (live.checked) void refresh();
  }, 1500);
  return refresh();
}
