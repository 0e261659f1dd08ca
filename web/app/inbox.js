// The correspondence inbox (#/inbox: games waiting for you, most urgent first), notifications in
// the page (the player stream) and Web Push through the service worker (/sw.js).

import { ApiError, HEADER_DRAWN, SESSION_ENDED, call, listGames, othersAt, session, streamTicket } from './api.js';
import { h, render } from './dom.js';
import { countdown, currentLang, fill, formatDate, refusal, t, tr } from './i18n.js';
import './notes.js';

/** @type {Record<string, [string, string]>} words of this page only (i18n.js: those pages share) */
const WORDS = {
  challenge_from: ['{name} challenges you', '{name} lança-lhe um desafio'],
  challenge_to: ['You challenged {name}', 'Desafiou {name}'],
  no_challenges: ['No open challenge.', 'Nenhum desafio em aberto.'],
  decline: ['Decline', 'Recusar'],
  dismiss: ['Dismiss', 'Fechar'],
  push_unavailable: ['Push notifications are not available here.', 'Notificações push indisponíveis aqui.'],
  push_denied: ['Notifications are blocked in this browser.', 'As notificações estão bloqueadas neste navegador.'],
  due_in: ['due in {t}', 'termina em {t}'],
  inbox: ['Your turn in', 'É a sua vez em'],
  notifications: ['Notifications', 'Notificações'],
  mark_all_read: ['Mark all read', 'Marcar tudo como lido'],
  show_older: ['Show older', 'Mostrar mais antigos'],
  push_on: ['Push notifications are on.', 'Notificações push ativas.'],
  enable_push: ['Enable push notifications', 'Ativar notificações push'],
  inbox_empty: ['No game is waiting for you.', 'Nenhum jogo espera por si.'],
};

/** @typedef {import('./api.js').Notification} Notification */
/** @typedef {import('./api.js').NotificationPage} NotificationPage */
/** @typedef {import('./api.js').GameSummary} GameSummary */

/** The most toasts shown at once (the newest stay). */
const TOASTS = 2;

/** The game a page shows now (its table or its replay), if any. */
const shownGame = () => /^#\/(?:game|replay)\/([^/?]+)/.exec(location.hash)?.[1] ?? null;
/** The tournament whose page is on the screen, or null. */
const shownTournament = () => /^#\/tournaments\/([^/?]+)/.exec(location.hash)?.[1] ?? null;

/**
 * Whether the page on the screen shows what `note` is about: a game's table or replay its game,
 * a tournament's page its tournament (its start, the player's table, its end).
 * @param {{game?: string | null, data?: unknown}} note
 */
function shownOnScreen(note) {
  const d = /** @type {Record<string, unknown>} */ (note.data && typeof note.data === 'object' ? note.data : {});
  return (!!note.game && note.game === shownGame())
    || (typeof d.tournament === 'string' && d.tournament === shownTournament());
}

/**
 * Whether the page on the screen says what `note` says: the inbox says every notification, and
 * a page what it shows (`shownOnScreen`).
 * @param {{game?: string | null, data?: unknown}} note
 */
function saidOnScreen(note) {
  return location.hash === '#/inbox' || shownOnScreen(note);
}

/** @type {Map<string, Promise<string[]>>} the other players of a game, by its id */
const othersOf = new Map();

/**
 * The other players of a game (read once; a waiting game's are read again).
 * @param {string} id
 * @returns {Promise<string[]>}
 */
function othersIn(id) {
  let found = othersOf.get(id);
  if (!found) {
    found = call('GET', `games/${encodeURIComponent(id)}/`).then(/** @param {import('./api.js').GameView} view */ (view) => {
      if (view.status === 'waiting') othersOf.delete(id);
      return othersAt(view);
    });
    found.catch(() => othersOf.delete(id));
    othersOf.set(id, found);
  }
  return found;
}

/**
 * What a notification says: its kind, then what it is about where its data tells (notes.js, as
 * push notifications say it) or, for a game, its other players.
 * @param {Notification} note
 * @param {string[]} players  the other players of its game (none known: nothing said)
 */
function noteText(note, players) {
  const about = noteAbout(note, currentLang() === 'pt' ? 1 : 0, players);
  return [tr(NOTIFICATION_TITLES[note.kind] ?? WORDS.notifications), ...about].join(' · ');
}

/**
 * Whether a notification's words need its game's players (its data names nobody).
 * @param {Notification} note
 */
const needsPlayers = (note) => !!note.game && !['player_joined', 'invited', 'challenge', 'challenge_accepted'].includes(note.kind)
  && !(note.data && typeof note.data === 'object' && 'others' in note.data);

/** @type {EventSource | null} */
let source = null;
let running = false;
let failures = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;

/** Open the player stream once per signed-in page (idempotent). */
export function startNotifications() {
  if (running) return;
  running = true;
  failures = 0;
  void refreshUnread();
  void open();
}

// The session ended here (signed out, or refused by the server): its stream closes.
addEventListener(SESSION_ENDED, () => stopNotifications());
// The header is drawn anew on every page, language and colour-blind switch, its badge empty: the
// count known is put back in it (it was lost until the next notification or a reload).
addEventListener(HEADER_DRAWN, () => { if (running) setUnread(unread); });

function stopNotifications() {
  running = false;
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  setUnread(0);
}

async function open() {
  if (!running) return;
  let ticket;
  try {
    ticket = (await streamTicket()).ticket;
  } catch {
    return retry();
  }
  if (!running) return;
  source = new EventSource(`/api/v1/players/me/stream/?ticket=${encodeURIComponent(ticket)}`);
  for (const kind of Object.keys(NOTIFICATION_TITLES)) source.addEventListener(kind, onNotification);
  source.onopen = () => { failures = 0; };
  // Signed out (docs/api.md): the new ticket's 401 says so now.
  source.addEventListener('stream_ended', () => { source?.close(); source = null; void open(); });
  source.onerror = () => {
    // A reconnect would repeat the used ticket: reopen with a new one, then catch up the count.
    source?.close();
    source = null;
    failures += 1;
    retry();
  };
}

function retry() {
  if (!running) return;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { void refreshUnread(); void open(); }, Math.min(60000, 1000 * 2 ** failures));
}

/** @param {MessageEvent} message */
function onNotification(message) {
  /** @type {Notification} */
  let note;
  try {
    note = JSON.parse(message.data);
  } catch {
    return;
  }
  void toast(note);
  // What the page on the screen shows (its game's table or replay, its tournament) is read as it
  // comes: the badge counts what the person has not seen. The inbox itself lists it, unread.
  if (shownOnScreen(note) && document.visibilityState === 'visible') void markRead(note.id);
  else void refreshUnread();
  // The table re-reads itself from its own stream; other pages learn of it here.
  dispatchEvent(new CustomEvent('uno:notification', { detail: note }));
}

/**
 * A notification in the page for 8 s, unless the page says it already (`saidOnScreen`): checked
 * when it comes, again when it is shown (its game's players read meanwhile), and a toast goes
 * once the page turns to what it says. A game's toast replaces the one before it of the same game.
 * @param {Notification} note
 */
async function toast(note) {
  const box = document.getElementById('toasts');
  if (!box || saidOnScreen(note)) return;
  /** @type {string[]} */
  let players = [];
  if (needsPlayers(note) && note.game) {
    const wait = new Promise((done) => { setTimeout(() => done([]), 2000); });
    players = await Promise.race([othersIn(note.game), wait]).catch(() => []);
  }
  if (saidOnScreen(note)) return;
  const about = /** @type {Record<string, unknown>} */ (note.data && typeof note.data === 'object' ? note.data : {});
  const tournament = typeof about.tournament === 'string' ? about.tournament : false;
  const link = h('a', { href: noteLink(note), onclick: () => void markRead(note.id) });
  const dismiss = h('button', { type: 'button', class: 'link', onclick: () => item.remove() }, '×');
  const words = () => {
    const text = noteText(note, players);
    if (link.textContent !== text) link.textContent = text; // not the same words again: the live region would say them twice
    dismiss.setAttribute('aria-label', tr(WORDS.dismiss));
  };
  words();
  const item = h('div', { class: 'toast', 'data-kind': note.kind, 'data-game-id': note.game ?? false, 'data-tournament': tournament },
    link, dismiss);
  toastWords.set(item, words);
  // One toast a game: its newest news (a tournament's table is told as started, then as ready).
  for (const older of box.querySelectorAll('.toast')) {
    if (note.game && older instanceof HTMLElement && older.dataset.gameId === note.game) older.remove();
  }
  while (box.children.length >= TOASTS) box.firstElementChild?.remove();
  box.append(item);
  setTimeout(() => item.remove(), 8000);
}

/** @type {WeakMap<Element, () => void>} each toast's words, said again in the page's language */
const toastWords = new WeakMap();

// A language switch draws the header again: a toast on screen says its words in the new language
// (it kept the old one for its 8 s under a page all in the new).
addEventListener(HEADER_DRAWN, () => {
  for (const item of document.querySelectorAll('#toasts .toast')) toastWords.get(item)?.();
});

addEventListener('hashchange', () => {
  for (const item of document.querySelectorAll('#toasts .toast')) {
    if (!(item instanceof HTMLElement)) continue;
    const { gameId, tournament } = item.dataset;
    if (saidOnScreen({ game: gameId, data: { tournament } })) item.remove();
  }
});

/**
 * A notification opened is read (only "Mark all read" marked any). The page it leads to is shown
 * at once; the count follows the server's answer.
 * @param {number} id
 */
async function markRead(id) {
  await call('POST', 'notifications/read/', { body: { ids: [id] } }).catch(() => {});
  void refreshUnread();
}

async function refreshUnread() {
  try {
    /** @type {NotificationPage} */
    const page = await call('GET', 'notifications/', { query: { unread: true, page_size: 1 } });
    setUnread(page.count);
  } catch { /* the badge is a hint */ }
}

/** The unread count last read or heard (the header's badge shows it). */
let unread = 0;

/** @param {number} n */
function setUnread(n) {
  unread = n;
  const badge = document.getElementById('unread');
  if (!badge) return;
  badge.hidden = n === 0;
  badge.textContent = String(n);
  badge.setAttribute('aria-label', `${n} ${tr(WORDS.notifications)}`);
}

/**
 * Draw a list again, the keyboard kept in it (a press that removed its item dropped it to the
 * top of the page): on the same control (its `data-key`), or, gone, on the control of the same
 * kind (its key up to `-`) in the item now at its place (the next, or the last), that item's first
 * button else, or on `empty` (the list's heading) when no item has one. Webhooks' lists too.
 * @param {HTMLElement} list
 * @param {HTMLElement} empty  focusable (tabindex -1)
 * @param {Node[]} items
 * @param {Element | null} [from]  the control pressed (by default the focused one)
 */
export function redraw(list, empty, items, from = document.activeElement) {
  const item = from instanceof HTMLElement && list.contains(from) ? from.closest('li') : null;
  const at = item ? [...list.children].indexOf(item) : -1;
  const key = from instanceof HTMLElement ? from.dataset.key ?? '' : '';
  const lost = document.activeElement === from || document.activeElement === document.body;
  render(list, ...items);
  if (!item || !lost) return;
  const rows = list.children;
  const row = rows[Math.min(at, rows.length - 1)];
  const found = list.querySelector(`[data-key="${CSS.escape(key)}"]`)
    ?? row?.querySelector(`[data-key^="${CSS.escape(key.split('-')[0])}-"]`) ?? row?.querySelector('button');
  (found instanceof HTMLElement ? found : empty).focus();
}

/** @param {GameSummary} game */
const urgency = (game) => (game.turn_deadline ? Date.parse(game.turn_deadline) : Infinity);

/** @param {HTMLElement} root */
export async function inboxPage(root) {
  const games = h('ul', { class: 'game-list', 'aria-label': tr(WORDS.inbox) }, h('li', { class: 'muted' }, t('loading')));
  const notes = h('ul', { class: 'notes', 'aria-label': tr(WORDS.notifications) });
  // The newest notifications, a page of 20 at first; "Show older" adds the next page (only the
  // newest 20 were ever shown: a challenge went out of sight behind a game's turns).
  let pages = 1;
  const older = h('button', { type: 'button', class: 'link', hidden: true, onclick: () => { pages += 1; void fillNotes(); } }, tr(WORDS.show_older));
  const challenges = h('ul', { class: 'game-list challenges', 'aria-label': t('challenges') });
  const challengesTitle = h('h2', { tabindex: -1 }, t('challenges'));
  const challengeAlert = h('p', { role: 'alert', class: 'error' });
  const push = h('div', { class: 'push' });
  render(root, h('div', { class: 'lobby' },
    h('section', { class: 'panel' }, h('h1', {}, tr(WORDS.inbox)), games),
    h('section', { class: 'panel' }, challengesTitle, challengeAlert, challenges),
    h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.notifications)),
      h('button', { type: 'button', onclick: async () => {
        await call('POST', 'notifications/read/', { body: { all: true } }).catch(() => {});
        void refreshUnread();
        void fillNotes();
      } }, tr(WORDS.mark_all_read)), notes, older, push)));

  const fillGames = async () => {
    try {
      const page = await listGames({ my_turn: true, page_size: 100 });
      const list = [...page.results].sort((a, b) => urgency(a) - urgency(b));
      render(games, list.length ? list.map((game) => h('li', { class: 'game-item', 'data-game-id': game.id },
        h('div', { class: 'game-info' },
          h('strong', {}, t('with_players', { names: othersAt(game).join(', ') })),
          game.turn_deadline ? dueIn(game.turn_deadline) : null),
        h('a', { class: 'button primary', href: `#/game/${game.id}` }, t('open'))))
        : h('li', { class: 'muted' }, tr(WORDS.inbox_empty)));
    } catch (error) {
      render(games, h('li', { role: 'alert', class: 'error' }, refusal(error)));
    }
  };
  /** @type {Map<string, string[]>} the other players of the caller's latest games */
  const playing = new Map();
  /** @type {Set<string>} games looked for in that list */
  const sought = new Set();
  const fillNotes = async () => {
    try {
      /** @type {Notification[]} */
      const results = [];
      /** @type {Set<number>} one written between two reads shifts the pages: each listed once */
      const listed = new Set();
      let more = false;
      for (let number = 1; number <= pages; number += 1) {
        /** @type {NotificationPage} */
        const read = await call('GET', 'notifications/', { query: { page_size: 20, page: number } });
        for (const note of read.results) {
          if (!listed.has(note.id)) results.push(note);
          listed.add(note.id);
        }
        more = !!read.next;
        if (!more) break;
      }
      older.hidden = !more;
      // The players of the caller's latest games name what the notifications are about: the
      // list is read again only for a game not looked for yet.
      const unknown = results.filter((note) => note.game && !sought.has(note.game));
      if (unknown.length) {
        unknown.forEach((note) => sought.add(String(note.game)));
        const mine = await listGames({ mine: true, page_size: 100 }).catch(() => null);
        for (const game of mine?.results ?? []) playing.set(game.id, othersAt(game));
      }
      render(notes, results.map((note) => h('li', { class: note.read ? 'read' : 'unread', 'data-kind': note.kind, 'data-game-id': note.game ?? false },
        h('a', { href: noteLink(note), onclick: () => { if (!note.read) void markRead(note.id); } }, noteText(note, (note.game && playing.get(note.game)) || [])),
        ' ', h('time', { class: 'muted small', datetime: note.at }, formatDate(note.at)))));
    } catch { /* shown empty */ }
  };
  /**
   * Answer a challenge; accepted, its game opens. Declined or cancelled, the keyboard goes to the
   * next challenge's Decline or Cancel (redraw).
   * @param {string} id
   * @param {'accept' | 'decline' | 'cancel'} how
   * @param {Element | null} pressed
   */
  const answer = async (id, how, pressed) => {
    challengeAlert.textContent = '';
    try {
      /** @type {import('./api.js').Schemas['Challenge']} */
      const done = await call('POST', `challenges/${id}/${how}/`);
      if (done.game) location.hash = `#/game/${done.game}`;
      else void fillChallenges(pressed);
    } catch (error) {
      challengeAlert.textContent = refusal(error);
      void fillChallenges(pressed);
    }
  };
  /** @param {Element | null} [pressed] */
  const fillChallenges = async (pressed = document.activeElement) => {
    try {
      /** @type {import('./api.js').Schemas['ChallengeList']} */
      const list = await call('GET', 'challenges/');
      const me = session()?.id;
      const open = list.challenges.filter((c) => c.status === 'open');
      redraw(challenges, challengesTitle, open.length ? open.map((c) => {
        const mine = c.challenger.id === me;
        const other = mine ? c.challenged : c.challenger;
        return h('li', { class: 'game-item', 'data-challenge-id': c.id },
          h('div', { class: 'game-info' },
            h('strong', {}, mine ? fill(tr(WORDS.challenge_to), { name: other.username }) : fill(tr(WORDS.challenge_from), { name: other.username })),
            dueIn(c.expires_at)),
          mine ? null : h('button', { type: 'button', class: 'primary', 'data-key': `yes-${c.id}`, onclick: (e) => void answer(c.id, 'accept', /** @type {Element} */ (e.currentTarget)) }, t('accept')),
          h('button', { type: 'button', 'data-key': `no-${c.id}`, onclick: (e) => void answer(c.id, mine ? 'cancel' : 'decline', /** @type {Element} */ (e.currentTarget)) },
            mine ? t('cancel') : tr(WORDS.decline)));
      }) : [h('li', { class: 'muted' }, tr(WORDS.no_challenges))], pressed);
    } catch { /* shown empty */ }
  };
  void fillGames();
  void fillNotes();
  void fillChallenges();
  drawPush(push);
  const onNote = () => { void fillGames(); void fillNotes(); void fillChallenges(); };
  addEventListener('uno:notification', onNote);
  // Countdowns tick; one run out reads its list again (an expired challenge leaves it).
  const tick = setInterval(() => {
    const ran = [...root.querySelectorAll('[data-ends]')].filter((el) => !tickDown(/** @type {HTMLElement} */ (el)));
    if (ran.some((el) => challenges.contains(el))) void fillChallenges();
    if (ran.some((el) => games.contains(el))) void fillGames();
  }, 1000);
  return () => {
    clearInterval(tick);
    removeEventListener('uno:notification', onNote);
  };
}

/** "due in 4:59" until `ends` (ISO), ticking. @param {string} ends */
function dueIn(ends) {
  const el = h('div', { class: 'muted small', 'data-ends': ends });
  tickDown(el);
  return el;
}

/** A `dueIn` written again; false once run out. @param {HTMLElement} el */
function tickDown(el) {
  const left = (Date.parse(el.dataset.ends ?? '') - Date.now()) / 1000;
  el.textContent = fill(tr(WORDS.due_in), { t: countdown(Math.max(0, left)) });
  if (left > 0) return true;
  delete el.dataset.ends;
  return false;
}

// --- Web Push ---------------------------------------------------------------------------------

/** @param {HTMLElement} box */
async function drawPush(box) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !window.isSecureContext) {
    render(box, h('p', { class: 'muted small' }, tr(WORDS.push_unavailable)));
    return;
  }
  if (Notification.permission === 'denied') {
    render(box, h('p', { class: 'muted small' }, tr(WORDS.push_denied)));
    return;
  }
  const registration = await navigator.serviceWorker.getRegistration('/');
  const existing = registration ? await registration.pushManager.getSubscription() : null;
  if (existing && Notification.permission === 'granted') {
    render(box, h('p', { class: 'muted small' }, tr(WORDS.push_on)));
    return;
  }
  const alert = h('p', { role: 'alert', class: 'error' });
  render(box, h('button', { type: 'button', onclick: async () => {
    try {
      await subscribe();
      render(box, h('p', { class: 'muted small' }, tr(WORDS.push_on)));
    } catch (error) {
      alert.textContent = error instanceof ApiError ? refusal(error) : String(error instanceof Error ? error.message : error);
    }
  } }, tr(WORDS.enable_push)), alert);
}

async function subscribe() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(tr(WORDS.push_denied));
  /** @type {import('./api.js').Schemas['PushKey']} */
  const { public_key: key } = await call('GET', 'push/key/');
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64UrlBytes(key),
  });
  await call('POST', 'push/subscriptions/', { body: subscription.toJSON() });
}

/** @param {string} text  base64url, as VAPID public keys are written */
function base64UrlBytes(text) {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const raw = atob(padded);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}
