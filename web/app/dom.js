// Small DOM helpers: elements from plain calls, cards drawn with CSS, focus kept across renders.

/** @typedef {import('../types/schema').components['schemas']['CardEnum']} Card */
/** @typedef {import('../types/schema').components['schemas']['ColorEnum']} Color */

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs */

/**
 * An element: `h('button', {type: 'button', onclick: f}, 'Draw')`. Attributes whose value is
 * false, null or undefined are left out; `on*` functions become listeners.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'value' && 'value' in el) {
      /** @type {HTMLInputElement} */ (/** @type {unknown} */ (el)).value = String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * Replace the children of `root`, keeping the focus on the element with the same `data-key`
 * (a re-render after every move must not throw a keyboard user back to the top).
 * @param {Element} root
 * @param {...(Child | Child[])} children
 */
export function render(root, ...children) {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : undefined;
  root.replaceChildren();
  append(root, children);
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement) again.focus();
  }
}

/** @type {Record<string, string>} */
const SYMBOLS = { skip: '⊘', reverse: '⇄', draw2: '+2', wild: '', 'wild-draw4': '+4' };

/**
 * The colour and face of a card code: `red-7` is red 7, `wild-draw4` has no colour.
 * @param {string} code
 * @returns {{color: Color | null, face: string}}
 */
export function cardParts(code) {
  if (code === 'wild' || code === 'wild-draw4') return { color: null, face: code };
  const dash = code.indexOf('-');
  return { color: /** @type {Color} */ (code.slice(0, dash)), face: code.slice(dash + 1) };
}

/**
 * What a card shows: its number or symbol.
 * @param {string} code
 */
export function cardFace(code) {
  const { face } = cardParts(code);
  return SYMBOLS[face] ?? face;
}

/**
 * A card, drawn with CSS: `data-card` carries its code (the hook of tests and tools).
 * @param {string} code
 * @param {{tag?: 'div' | 'button' | 'span', label: string, attrs?: Attrs, small?: boolean}} options
 */
export function cardEl(code, { tag = 'div', label, attrs = {}, small = false }) {
  const { color, face } = cardParts(code);
  const cls = ['card', color ? `c-${color}` : 'c-wild', `f-${face}`, small ? 'small' : '']
    .filter(Boolean)
    .join(' ');
  const text = cardFace(code);
  return h(
    tag,
    { class: cls, 'data-card': code, role: tag === 'button' ? null : 'img', 'aria-label': label, title: label, ...attrs },
    h('span', { class: 'corner', 'aria-hidden': 'true', 'data-face': text }),
    h('span', { class: 'oval', 'aria-hidden': 'true' }, face === 'skip' ? skipSign() : text || h('span', { class: 'wheel' })),
  );
}

/** The skip sign, drawn: in most fonts ⊘ reads as a slashed zero. */
function skipSign() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'skip-sign');
  const circle = document.createElementNS(ns, 'circle');
  circle.setAttribute('cx', '12');
  circle.setAttribute('cy', '12');
  circle.setAttribute('r', '8.5');
  const line = document.createElementNS(ns, 'line');
  line.setAttribute('x1', '6');
  line.setAttribute('y1', '18');
  line.setAttribute('x2', '18');
  line.setAttribute('y2', '6');
  svg.append(circle, line);
  return svg;
}

/** A face-down card (another seat's hand, the draw pile). */
export function cardBack(small = false) {
  return h('div', { class: small ? 'card back small' : 'card back', 'aria-hidden': 'true' },
    h('span', { class: 'oval' }, 'UNO'));
}

/**
 * A random key for the Idempotency-Key header (crypto.randomUUID needs a secure context).
 */
export function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
