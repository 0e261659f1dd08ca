// The locale each language of the page writes dates and numbers in: the dialect its words are
// written in (British English, European Portuguese), never the browser's. Kept once for the page
// (i18n.js imports this file) and the service worker, whose push notifications write a turn's
// deadline (sw.js loads it with `importScripts`, before notes.js). So it is a plain script, as
// notes.js is: loaded as a module, its name reaches the global object only by the assignment below.

/** @type {{en: string, pt: string}} */
const LOCALES = { en: 'en-GB', pt: 'pt-PT' };

Object.assign(globalThis, { LOCALES });
