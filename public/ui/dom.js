// A tiny element builder: h('button', { onclick, class: 'x' }, 'label').

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'value') el.value = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof window.Node ? child : String(child));
  }
  return el;
}

export function usd(cents) {
  if (typeof cents !== 'number') return '—';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')} USD`;
}

export function time(iso) {
  if (typeof iso !== 'string') return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** The first array found in a response under one of `keys` (or the response itself). */
export function listOf(data, ...keys) {
  if (Array.isArray(data)) return data;
  for (const key of keys) if (Array.isArray(data?.[key])) return data[key];
  return [];
}

/**
 * One section's frame: its body element, a status line, and how to say "not available".
 */
export function section(id) {
  const root = document.getElementById(id);
  const body = root.querySelector('.body');
  const status = h('div', { class: 'status', 'data-test': `${id}-status` });
  return {
    root,
    body,
    /** Replaces the section's content; the status line stays at the bottom. */
    fill(...nodes) {
      body.replaceChildren(...nodes, status);
    },
    say(text, kind = '') {
      status.className = `status ${kind}`;
      status.textContent = text;
    },
    async run(label, action) {
      try {
        const result = await action();
        this.say(typeof result === 'string' ? result : `${label}: done`, 'ok');
      } catch (err) {
        this.say(`${label}: ${err.message}`, 'error');
      }
    },
    unavailable(missing) {
      return h(
        'p',
        { class: 'unavailable', 'data-test': `${id}-unavailable` },
        `Not available in this sandbox build (no ${missing.join(', ')}).`,
      );
    },
  };
}
