// Run by test_refusal_words.py: web/app/i18n.js's refusal() in Node, without a browser (i18n.js
// copied beside this script with the locales.js it imports). Reads a JSON file of cases, each an
// error as api.js's ApiError carries it (`code`, `detail`, `body`), the page's own `words` and the
// `vars`; prints, for each case, what the page shows in English and in Portuguese, and the codes
// REFUSALS has words for.

import { readFileSync } from 'node:fs';

const stored = new Map();
globalThis.localStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)) };
Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-GB' }, configurable: true });
globalThis.document = { documentElement: {} };

const { refusal, setLang, REFUSALS } = await import('./i18n.js');

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const shown = cases.map((c) => {
  /** @type {Record<string, string>} */
  const said = {};
  for (const lang of ['en', 'pt']) {
    setLang(lang);
    said[lang] = refusal(c.error, c.words ?? {}, c.vars ?? {});
  }
  return said;
});
console.log(JSON.stringify({ shown, codes: Object.keys(REFUSALS) }));
