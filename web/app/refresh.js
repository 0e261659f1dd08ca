// Silent refresh (sessions): loaded by api.js only when a call meets `token_expired`. It imports
// nothing (api.js gives it the storage keys): no module imports one that imports it.

/** @type {Promise<boolean | null> | null} the refresh under way, shared by every call that waits */
let refreshing = null;

/**
 * Trade the refresh token for a new pair, once for every call that met the expired `stale`
 * token. Another tab (they share localStorage) may have refreshed already: then there is nothing
 * to do. False when the server refuses (the session is over), null when it cannot be reached.
 * @param {string} stale
 * @param {string} TOKEN_KEY  where the access token is kept (`uno.token`)
 * @param {string} REFRESH_KEY  where the refresh token is kept (`uno.refresh`)
 * @returns {Promise<boolean | null>}
 */
export function refreshed(stale, TOKEN_KEY, REFRESH_KEY) {
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
    } catch {
      return null;
    }
    if (!response.ok) return false;
    /** @type {{access: string, refresh: string}} */
    const pair = await response.json();
    localStorage.setItem(TOKEN_KEY, pair.access);
    localStorage.setItem(REFRESH_KEY, pair.refresh);
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
