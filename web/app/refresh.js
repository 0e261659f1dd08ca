// Silent refresh (sessions): loaded by api.js only when a call meets `token_expired`.

import { ApiError, REFRESH_KEY, TOKEN_KEY } from './api.js';

/** @type {Promise<boolean> | null} the refresh under way, shared by every call that waits */
let refreshing = null;

/**
 * Trade the refresh token for a new pair, once for every call that met the expired `stale`
 * token. Another tab (they share localStorage) may have refreshed already: then there is nothing
 * to do. False when the server refuses (the session is over); a network failure rejects.
 * @param {string} stale
 * @returns {Promise<boolean>}
 */
export function refreshed(stale) {
  if (localStorage.getItem(TOKEN_KEY) !== stale) return Promise.resolve(true);
  refreshing ??= (async () => {
    const refresh = localStorage.getItem(REFRESH_KEY);
    if (!refresh) return false;
    let response;
    try {
      response = await fetch(new URL('/api/v1/auth/refresh/', location.origin), {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh }),
      });
    } catch (error) {
      throw new ApiError(0, 'network', String(error instanceof Error ? error.message : error));
    }
    if (!response.ok) return false;
    /** @type {import('./api.js').Schemas['AuthToken']} */
    const pair = await response.json();
    localStorage.setItem(TOKEN_KEY, pair.access);
    localStorage.setItem(REFRESH_KEY, pair.refresh);
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
