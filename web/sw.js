// The service worker: it shows Web Push notifications and opens the game when one is clicked.
// It caches nothing: the page is small and served by the service itself.

/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener('install', () => void worker.skipWaiting());
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

/** @type {Record<string, [string, string]>} */
const TITLES = {
  your_turn: ['Your turn', 'A sua vez'],
  deadline_soon: ['Time is running out', 'O tempo está a acabar'],
  game_started: ['Game started', 'O jogo começou'],
  game_finished: ['Game finished', 'O jogo terminou'],
  player_joined: ['A player joined', 'Entrou um jogador'],
  invited: ['You were invited', 'Foi convidado'],
};

worker.addEventListener('push', (event) => {
  /** @type {{kind?: string, game?: string | null}} */
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = {};
  }
  const pt = (navigator.language || '').toLowerCase().startsWith('pt') ? 1 : 0;
  const title = (note.kind && TITLES[note.kind]?.[pt]) || 'UNO';
  event.waitUntil(worker.registration.showNotification(title, {
    tag: note.game ? `game-${note.game}` : undefined,
    data: { url: note.game ? `/#/game/${note.game}` : '/#/inbox' },
  }));
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
