// Run by test_feed_words.py: the move feed's lines (web/app/feed.js, copied beside this script
// with the dom.js and i18n.js it imports, and the locales.js i18n.js imports) in Node, without a
// browser. The page's globals are stood in for by the least the modules touch (an element is its
// tag, attributes and children). Reads a JSON file of cases, each a view's seats, the seat's event
// log and the seqs whose lines to word; prints, for each case, language and seq, the line as shown
// (a card read as its name) and as read out (without what is aria-hidden: '' for a line hidden
// whole).

import { readFileSync } from 'node:fs';

const stored = new Map();
globalThis.localStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)) };
Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-GB' }, configurable: true });

class Element {
  /** @param {string} tag */
  constructor(tag) {
    this.tag = tag;
    /** @type {Record<string, string>} */
    this.attrs = {};
    /** @type {(Element | string)[]} */
    this.children = [];
  }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  getAttribute(k) { return this.attrs[k] ?? null; }
  addEventListener() {}
  append(...nodes) { this.children.push(...nodes); }
}
globalThis.document = {
  documentElement: {},
  createElement: (tag) => new Element(tag),
  createElementNS: (_, tag) => new Element(tag),
};

const { feedItem, seatsOf } = await import('./feed.js');
const { setLang } = await import('./i18n.js');

/**
 * @param {Element | string} node
 * @param {boolean} spoken  leave out what is aria-hidden
 * @returns {string}
 */
function text(node, spoken) {
  if (typeof node === 'string') return node;
  if (node.attrs['data-card']) return node.attrs['aria-label'];
  if (spoken && node.attrs['aria-hidden'] === 'true') return '';
  return node.children.map((c) => text(c, spoken)).join('');
}
const tidy = (s) => s.replace(/\s+/g, ' ').trim();

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = [];
for (const c of cases) {
  const log = new Map(c.events.map((e) => [e.seq, e]));
  const seats = seatsOf(c.view, (seq) => log.get(seq));
  /** @type {Record<string, Record<string, {shown: string, said: string, cards: string[]}>>} */
  const lines = {};
  for (const lang of ['en', 'pt']) {
    setLang(lang);
    lines[lang] = {};
    for (const seq of c.lines) {
      const li = feedItem(log.get(seq), seats);
      const cards = [];
      const walk = (n) => typeof n !== 'string' && (n.attrs['data-card'] ? cards.push(n.attrs['data-card']) : n.children.forEach(walk));
      walk(li);
      lines[lang][seq] = { shown: tidy(text(li, false)), said: tidy(text(li, true)), cards };
    }
  }
  out.push({ name: c.name, lines });
}
console.log(JSON.stringify(out));
