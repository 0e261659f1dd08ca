// The service worker: it keeps the page's shell for offline use, shows Web Push notifications
// and opens the game when one is clicked.
//
// The shell (the page, its modules, the stylesheet, the manifest and icons) is cached on install;
// the page and /app/ files are then served network-first (a new deployment is seen at once),
// from the cache only when the network fails. /api/ is never cached: offline, the page says so
// (web/app/offline.js). SHELL lists every file of web/app/ (tests/webclient/test_install.py
// checks it): a new module goes in the list, and CACHE's version goes up with any change to it.

/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
// What a notification says (NOTIFICATION_TITLES, noteAbout, noteLink) and the languages' locales
// its dates are written in, kept once for the page and this worker.
importScripts('/app/locales.js', '/app/notes.js');

const CACHE = 'uno-shell-v42';
const SHELL = [
  '/',
  '/manifest.webmanifest',
  '/app/api.js',
  '/app/auth.js',
  '/app/chat.css',
  '/app/chat.js',
  '/app/dom.js',
  '/app/email.js',
  '/app/feed.js',
  '/app/i18n.js',
  '/app/icons/apple-touch-icon.png',
  '/app/icons/uno-192.png',
  '/app/icons/uno-512.png',
  '/app/icons/uno-maskable.svg',
  '/app/icons/uno.svg',
  '/app/inbox.js',
  '/app/kinds.js',
  '/app/live.js',
  '/app/lobby.js',
  '/app/locales.js',
  '/app/main.js',
  '/app/notes.js',
  '/app/offline.js',
  '/app/pages.css',
  '/app/players.js',
  '/app/refresh.js',
  '/app/replay.js',
  '/app/router.js',
  '/app/rulebook.js',
  '/app/rules.js',
  '/app/sessions.js',
  '/app/style.css',
  '/app/table.js',
  '/app/table/actions.js',
  '/app/table/end.js',
  '/app/table/render.js',
  '/app/table/state.js',
  '/app/tournaments.js',
  '/app/webhooks.js',
];

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' })));
    await worker.skipWaiting();
  })());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name.startsWith('uno-shell-')) await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

/**
 * The network's answer (kept in the cache for next time), or the cache's when the network fails.
 * @param {Request} request
 * @param {string} [fallback]  the cached path to answer with instead (a navigation: the page)
 */
async function networkFirst(request, fallback) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === 'basic') await cache.put(fallback ?? request, answer.clone());
    return answer;
  } catch (error) {
    const kept = await cache.match(fallback ?? request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // Every route is a hash of the one page, kept as `/` (the admin and the API docs are not).
    if (url.pathname === '/') event.respondWith(networkFirst(request, '/'));
  } else if (url.pathname.startsWith('/app/') || url.pathname === '/manifest.webmanifest') {
    event.respondWith(networkFirst(request));
  }
});

/**
 * The language of the page's switch (i18n.js keeps it in the `uno-settings` cache), else the
 * browser's: 1 for Portuguese, 0 for English (the index of a title's words).
 */
async function language() {
  try {
    const kept = await (await caches.open('uno-settings')).match('/settings/lang');
    if (kept) return (await kept.text()) === 'pt' ? 1 : 0;
  } catch {
    // no storage here: the browser's language
  }
  return (navigator.language || '').toLowerCase().startsWith('pt') ? 1 : 0;
}

/**
 * Show a pushed notification: its kind's title and what its data tells (notes.js), in the page's
 * language, leading where the page's own list would.
 * @param {{kind?: string, game?: string | null, data?: unknown}} note
 */
async function showPush(note) {
  const titles = /** @type {Record<string, [string, string] | undefined>} */ (NOTIFICATION_TITLES);
  const lang = await language();
  const words = note.kind ? titles[note.kind] : undefined;
  await worker.registration.showNotification(words ? words[lang] : 'UNO', {
    body: noteAbout(note, lang).join(' · '),
    tag: note.game ? `game-${note.game}` : undefined,
    data: { url: `/${noteLink(note)}` },
  });
}

worker.addEventListener('push', (event) => {
  /** @type {{kind?: string, game?: string | null, data?: unknown}} */
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = {};
  }
  event.waitUntil(showPush(note));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', worker.location.origin).href;
  event.waitUntil((async () => {
    const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).origin === worker.location.origin) {
        await client.focus();
        if ('navigate' in client) await /** @type {WindowClient} */ (client).navigate(url);
        return;
      }
    }
    await worker.clients.openWindow(url);
  })());
});
