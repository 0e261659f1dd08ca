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
/** @typedef {Schemas['AuthToken']} Pair */
/** @typedef {Schemas['Session']} DeviceSession */

const TOKEN_KEY = 'uno.token';
const USER_KEY = 'uno.user';
// sessions: the refresh token of the session's pair (uno.token holds its access token)
const REFRESH_KEY = 'uno.refresh';

/** The error body of every refusal: `code` for programs, `detail` for people. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} detail
   */
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
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
 * @param {string} token
 * @param {{id: number, username: string}} user
 */
export function saveSession(token, user) {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify({ id: user.id, username: user.username }));
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(REFRESH_KEY);
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
 * @param {{body?: unknown, query?: Record<string, string | number | boolean | undefined>, idempotent?: boolean, signal?: AbortSignal, reviver?: (this: any, key: string, value: any, context?: {source?: string}) => any}} [options]
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
  if (options.idempotent) headers['Idempotency-Key'] = randomKey(); // the same key on the retry
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  let current = session();
  let answer = await send(url, method, headers, body, current, options);
  // sessions: an expired access token is refreshed once (one refresh shared by every call
  // that met it) and the call sent once more with the new one.
  if (answer.status === 401 && current && answer.code === 'token_expired') {
    try {
      await refreshSession(current.token);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'network') throw error;
      onUnauthorized();
      throw error instanceof ApiError ? error : answer.error;
    }
    current = session();
    answer = await send(url, method, headers, body, current, options);
  }
  if (answer.error) {
    if (answer.status === 401 && current) onUnauthorized();
    throw answer.error;
  }
  return answer.data;
}

/**
 * One request as `call` sends it, with the session's current access token.
 * @param {URL} url
 * @param {string} method
 * @param {Record<string, string>} baseHeaders
 * @param {string | undefined} body
 * @param {{token: string} | null} current
 * @param {{signal?: AbortSignal, reviver?: (this: any, key: string, value: any, context?: {source?: string}) => any}} options
 * @returns {Promise<{status: number, code: string, data: any, error: ApiError | null}>}
 */
async function send(url, method, baseHeaders, body, current, options) {
  const headers = { ...baseHeaders };
  if (current) headers.Authorization = `Token ${current.token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal });
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
  if (response.ok) return { status: response.status, code: '', data, error: null };
  const code = data && typeof data.code === 'string' ? data.code : `http_${response.status}`;
  const detail = data && typeof data.detail === 'string' ? data.detail : response.statusText;
  return { status: response.status, code, data, error: new ApiError(response.status, code, detail) };
}

// --- typed calls ------------------------------------------------------------------------------

/**
 * @param {string} username
 * @param {string} password
 */
export async function register(username, password) {
  /** @type {Schemas['RegisteredPlayer']} */
  const player = await call('POST', 'players/', { body: { username, password } });
  saveSession(player.access, player); // registered is signed in: the answer has the pair
  saveRefresh(player.refresh);
  return player;
}

/**
 * @param {string} username
 * @param {string} password
 * @returns {Promise<{token: string, id: number, username: string}>}
 */
export async function signIn(username, password) {
  /** @type {Pair} */
  const pair = await call('POST', 'auth/token/', { body: { username, password } });
  const token = pair.access;
  saveSession(token, { id: 0, username });
  saveRefresh(pair.refresh);
  /** @type {OwnProfile} */
  const me = await call('GET', 'players/me/');
  saveSession(token, me);
  return { token, id: me.id, username: me.username };
}

export async function signOut() {
  try {
    await call('POST', 'auth/logout/');
  } finally {
    clearSession();
  }
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
  saveSession(guest.access, guest);
  saveRefresh(guest.refresh);
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

// --- sessions: silent refresh and the session list ------------------------------------------------

/** @param {string} refresh */
function saveRefresh(refresh) {
  localStorage.setItem(REFRESH_KEY, refresh);
}

/** @type {Promise<void> | null} the refresh under way: every call that met `token_expired` waits on it */
let refreshing = null;

/**
 * Trade the session's refresh token for a new pair, once for every call that met an expired
 * `stale` token. Another tab (they share localStorage) may have refreshed already: then the
 * stored token is no longer `stale` and there is nothing to do. Rejects with the refusal
 * (`token_reused`, `not_authenticated`) when the session is over.
 * @param {string} stale  the access token the server called expired
 * @returns {Promise<void>}
 */
export function refreshSession(stale) {
  const now = session();
  if (now && now.token !== stale) return Promise.resolve();
  if (!refreshing) {
    refreshing = (async () => {
      const refresh = localStorage.getItem(REFRESH_KEY);
      if (!refresh) throw new ApiError(401, 'not_authenticated', 'No refresh token.');
      const answer = await send(new URL('/api/v1/auth/refresh/', location.origin), 'POST',
        { Accept: 'application/json', 'Content-Type': 'application/json' },
        JSON.stringify({ refresh }), null, {});
      if (answer.error) throw answer.error;
      /** @type {Pair} */
      const pair = answer.data;
      localStorage.setItem(TOKEN_KEY, pair.access);
      saveRefresh(pair.refresh);
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/**
 * The caller's open sessions (devices), the current one marked `current`.
 * @returns {Promise<DeviceSession[]>}
 */
export function listSessions() {
  return call('GET', 'players/me/sessions/');
}

/**
 * End one of the caller's sessions (its tokens stop working).
 * @param {string} id
 * @returns {Promise<null>}
 */
export function endSession(id) {
  return call('DELETE', `players/me/sessions/${encodeURIComponent(id)}/`);
}
