// The HTTP API, typed from the served schema (types/schema.d.ts, generated: make web-types).

import { randomKey } from './dom.js';

/** @typedef {import('../types/schema').components['schemas']} Schemas */
/** @typedef {Schemas['GameView']} GameView */
/** @typedef {Schemas['GameSummary']} GameSummary */
/** @typedef {Schemas['GamePage']} GamePage */
/** @typedef {Schemas['Action']} Action */
/** @typedef {Schemas['GameCreateRequest']} GameCreate */
/** @typedef {Schemas['OwnProfile']} OwnProfile */
/** @typedef {Schemas['PublicProfile']} PublicProfile */
/** @typedef {Schemas['EventPage']} EventPage */
/** @typedef {Schemas['Event']} GameEvent */
/** @typedef {Schemas['NotificationPage']} NotificationPage */
/** @typedef {Schemas['Notification']} Notification */
/** @typedef {Schemas['StreamTicket']} StreamTicket */
/** @typedef {Schemas['BotLevelEnum']} BotLevel */
/** @typedef {Schemas['SeatView']} SeatView */

const TOKEN_KEY = 'uno.token';
const USER_KEY = 'uno.user';
const REFRESH_KEY = 'uno.refresh'; // sessions: the pair's refresh token (refresh.js)

/** The error body of every refusal: `code` for programs, `detail` for people. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} detail
   * @param {Record<string, any>} [body]  the whole error body (`retry_after`, `until`, …)
   */
  constructor(status, code, detail, body = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.body = body;
  }
}

/** @returns {{token: string, id: number, username: string} | null} */
export function session() {
  const token = localStorage.getItem(TOKEN_KEY);
  const user = localStorage.getItem(USER_KEY);
  if (!token || !user) return null;
  try {
    const { id, username } = JSON.parse(user);
    return { token, id, username };
  } catch {
    return null;
  }
}

/**
 * The names of a game's seated players but the caller's (lists name the others, never the viewer).
 * @param {{seats: {player: {id: number, username: string}}[]}} game
 */
export const othersAt = (game) => game.seats.filter((s) => s.player.id !== session()?.id).map((s) => s.player.username);

/**
 * @param {string} token
 * @param {{id: number, username: string}} user
 * @param {string} [refresh]
 */
export function saveSession(token, user, refresh) {
  localStorage.setItem(TOKEN_KEY, token);
  if (refresh) localStorage.setItem(REFRESH_KEY, refresh);
  localStorage.setItem(USER_KEY, JSON.stringify({ id: user.id, username: user.username }));
}

/** The event the page hears when the session it showed ends here (the inbox closes its stream). */
export const SESSION_ENDED = 'uno:session-ended';

/** The event the page hears when its header was drawn anew (the inbox puts its unread count back in it). */
export const HEADER_DRAWN = 'uno:header-drawn';

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(REFRESH_KEY);
  try { indexedDB.deleteDatabase('uno-refresh'); } catch { /* no IndexedDB */ } // refresh.js: the last rotation
  dispatchEvent(new Event(SESSION_ENDED));
}

/** Called when the server says the token is no longer good (401): the app signs out. */
let onUnauthorized = () => {};
/** @param {() => void} handler */
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

/**
 * One call to the API. Resolves with the JSON body; rejects with ApiError (the body's code
 * and detail, or a network error as code `network`).
 * @param {string} method
 * @param {string} path  under /api/v1/, e.g. `games/`
 * `anonymous`: sent without the session's token, whatever this browser holds (the account mails'
 * links, which need none: a stale session here must not refuse them, nor sign out meanwhile).
 * @param {{body?: unknown, query?: Record<string, string | number | boolean | undefined>, idempotent?: boolean, anonymous?: boolean, signal?: AbortSignal, reviver?: (this: any, key: string, value: any, context?: {source?: string}) => any}} [options]
 * @returns {Promise<any>}
 */
export async function call(method, path, options = {}) {
  const url = new URL(`/api/v1/${path}`, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotent) headers['Idempotency-Key'] = randomKey();
  for (let retried = false; ; retried = true) {
    const current = options.anonymous ? null : session();
    if (current) headers.Authorization = `Token ${current.token}`;
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      dispatchEvent(new Event('uno:unreachable')); // offline.js shows "You are offline"
      throw new ApiError(0, 'network', String(error instanceof Error ? error.message : error));
    }
    const text = await response.text();
    /** @type {any} */
    let data = null;
    try {
      data = text ? JSON.parse(text, options.reviver) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      const code = data && typeof data.code === 'string' ? data.code : `http_${response.status}`;
      const detail = data && typeof data.detail === 'string' ? data.detail : response.statusText;
      // sessions: an expired access token is refreshed (once for concurrent calls) and the call
      // sent once more; a refused refresh signs out as any 401 does.
      if (code === 'token_expired' && current && !retried) {
        const ok = await (await import('./refresh.js')).refreshed(current.token, TOKEN_KEY, REFRESH_KEY);
        if (ok) continue;
        if (ok === null) throw new ApiError(0, 'network', 'The refresh did not reach the server.');
      }
      if (response.status === 401 && current) onUnauthorized();
      throw new ApiError(response.status, code, detail, data ?? {});
    }
    return data;
  }
}

// --- typed calls ------------------------------------------------------------------------------

/**
 * @param {string} username
 * @param {string} password
 * @param {string} [email]  optional: mailed a link (in `language`) that makes it the account's
 * @param {'en' | 'pt'} [language]
 */
export async function register(username, password, email = '', language = 'en') {
  const body = email ? { username, password, email, language } : { username, password };
  /** @type {Schemas['RegisteredPlayer']} */
  const player = await call('POST', 'players/', { body });
  saveSession(player.access, player, player.refresh); // registered is signed in
  return player;
}

/**
 * @param {string} username
 * @param {string} password
 * @returns {Promise<{token: string, id: number, username: string}>}
 */
export async function signIn(username, password) {
  /** @type {Schemas['AuthToken']} */
  const { access: token, refresh } = await call('POST', 'auth/token/', { body: { username, password } });
  saveSession(token, { id: 0, username }, refresh);
  /** @type {OwnProfile} */
  const me = await call('GET', 'players/me/');
  saveSession(token, me);
  return { token, id: me.id, username: me.username };
}

/**
 * End the session of `leaving` (a username: whoever the page showed signed in when asked) on the
 * server, then here. A sign-in made meanwhile (in this tab, or another sharing the storage) is
 * kept: the call ends only the session it was asked to, and clears only that one.
 * @param {string | undefined} leaving
 */
export async function signOut(leaving) {
  if (!leaving || session()?.username !== leaving) return;
  try {
    await call('POST', 'auth/logout/'); // sent with that session's token (refreshed if it expired)
  } finally {
    if (session()?.username === leaving) clearSession();
    else dispatchEvent(new Event(SESSION_ENDED)); // kept another's sign-in: the page's stream was the leaving one's
  }
}

/** Set when this browser's account was deleted: the sign-in page says so once. */
export const ACCOUNT_DELETED = 'uno.account-deleted';

/**
 * Delete the caller's account for good (`password`: a guest's is ''): every session of it ends,
 * this one with it.
 * @param {string} password
 */
export async function deleteAccount(password) {
  await call('POST', 'players/me/delete/', { body: password ? { password } : {} });
  sessionStorage.setItem(ACCOUNT_DELETED, '1');
  clearSession();
}

/** Set when a reset's link set the password of an account (its name): the sign-in page says so once. */
export const PASSWORD_RESET = 'uno.password-reset';

/**
 * A new password from a reset's link (`token`), sent without this browser's session. Every
 * session of the account ends: this browser's too when it is that account's (`signedOut`: it is
 * cleared here, and the sign-in page then says the password is changed, the name filled).
 * @param {string} token
 * @param {string} password
 * @returns {Promise<{username: string, signedOut: boolean}>}
 */
export async function resetPassword(token, password) {
  /** @type {Schemas['PasswordResetDone']} */
  const { username } = await call('POST', 'auth/password-reset/confirm/', { body: { token, new_password: password }, anonymous: true });
  const here = session();
  if (here && here.username !== username) return { username, signedOut: false };
  if (here) clearSession();
  sessionStorage.setItem(PASSWORD_RESET, username);
  return { username, signedOut: true };
}

/**
 * @param {Record<string, string | number | boolean | undefined>} query
 * @returns {Promise<GamePage>}
 */
export function listGames(query) {
  return call('GET', 'games/', { query });
}

/**
 * @param {string} id
 * @returns {Promise<GameView>}
 */
export function getGame(id) {
  return call('GET', `games/${encodeURIComponent(id)}/`);
}

/**
 * @param {GameCreate} body
 * @returns {Promise<GameView>}
 */
export function createGame(body) {
  return call('POST', 'games/', { body });
}

/**
 * A call on one game: join, leave, start, resign, rematch.
 * @param {string} id
 * @param {'join' | 'leave' | 'start' | 'resign' | 'rematch'} what
 * @returns {Promise<GameView>}
 */
export function gameCall(id, what) {
  return call('POST', `games/${encodeURIComponent(id)}/${what}/`);
}

/**
 * @param {string} id
 * @param {BotLevel} level
 * @returns {Promise<GameView>}
 */
export function addBot(id, level) {
  return call('POST', `games/${encodeURIComponent(id)}/bots/`, { body: { level } });
}

/**
 * One action, refused if the game moved past the version the person saw.
 * @param {string} id
 * @param {Action} action
 * @param {number} version
 * @returns {Promise<GameView>}
 */
export function act(id, action, version) {
  return call('POST', `games/${encodeURIComponent(id)}/actions/`, {
    body: { ...action, expected_version: version },
    idempotent: true,
  });
}

/**
 * @param {string} id
 * @param {number} after
 * @param {{wait?: number, limit?: number, signal?: AbortSignal}} [options]
 * @returns {Promise<EventPage>}
 */
export function events(id, after, options = {}) {
  return call('GET', `games/${encodeURIComponent(id)}/events/`, {
    query: { after, wait: options.wait, limit: options.limit },
    signal: options.signal,
  });
}

/**
 * @param {string} id
 * @param {number} at
 * @returns {Promise<GameView>}
 */
export function replay(id, at) {
  return call('GET', `games/${encodeURIComponent(id)}/replay/`, { query: { at } });
}

/** @returns {Promise<StreamTicket>} */
export function streamTicket() {
  return call('POST', 'auth/stream-ticket/');
}

// --- entry: guest, play now, offline ------------------------------------------------------------

/**
 * A guest account (no password, a generated name): the session is kept as signing in keeps it,
 * with `guest: true` in `uno.user` (the header marks it; claiming the account clears it).
 * @returns {Promise<{token: string, id: number, username: string}>}
 */
export async function playAsGuest() {
  /** @type {Schemas['GuestAccount']} */
  const guest = await call('POST', 'players/guest/');
  saveSession(guest.access, guest, guest.refresh);
  localStorage.setItem(USER_KEY, JSON.stringify({ id: guest.id, username: guest.username, guest: true }));
  return { token: guest.access, id: guest.id, username: guest.username };
}

/** Whether the session is a guest's (one made by `playAsGuest`, not yet claimed). */
export function isGuest() {
  try {
    return Boolean(session() && JSON.parse(localStorage.getItem(USER_KEY) ?? '{}').guest);
  } catch {
    return false;
  }
}

/**
 * The guest keeps the account: a username and a password; the same token goes on.
 * @param {string} username
 * @param {string} password
 * @returns {Promise<OwnProfile>}
 */
export async function claimAccount(username, password) {
  /** @type {OwnProfile} */
  const me = await call('POST', 'players/me/claim/', { body: { username, password } });
  const current = session();
  if (current) saveSession(current.token, me);
  return me;
}

/**
 * Play now: a game for the caller and three `basic` bots, default rules; the bots fill it, so it
 * starts at once.
 * @returns {Promise<GameView>}
 */
export function playAgainstBots() {
  return createGame({ max_players: 4, bots: ['basic', 'basic', 'basic'] });
}
