// Silent refresh (sessions): loaded by api.js only when a call meets `token_expired`. It imports
// nothing (api.js gives it the storage keys): no module imports one that imports it.

/** @type {Promise<boolean | null> | null} the refresh under way, shared by every call that waits */
let refreshing = null;

/** The Web Lock every tab of the origin takes to refresh, and the IndexedDB database of the
 * last rotation (HOOKS.md, "Sessions"; api.js's clearSession deletes it). */
const LOCK = 'uno-refresh';
const HANDOFF_DB = 'uno-refresh';

/** @typedef {{spent: string, access: string, refresh: string}} Rotation  the refresh token
 * traded, and the pair it was traded for */

/**
 * `work` under the cross-tab lock; without the Web Locks API (an insecure origin, an old
 * browser) as it is, which shares the refresh within this tab only.
 * @param {() => Promise<boolean | null>} work
 * @returns {Promise<boolean | null>}
 */
async function locked(work) {
  return navigator.locks ? await navigator.locks.request(LOCK, work) : work();
}

/**
 * The last rotation of this browser's pair, read or (with `value`) written; undefined when
 * there is none or IndexedDB fails. Kept in IndexedDB, not only in localStorage: a tab's
 * localStorage is a copy that another tab's writes reach a little later (Chromium: a few ms,
 * after the lock may have passed on), while IndexedDB answers from the store itself, where a
 * write whose transaction completed before the lock passed on is seen by the next holder.
 * @param {Rotation} [value]
 * @returns {Promise<Rotation | undefined>}
 */
function lastRotation(value) {
  return new Promise((resolve) => {
    setTimeout(resolve, 3000); // never holds the lock (every tab's refresh) for long
    try {
      const opening = indexedDB.open(HANDOFF_DB, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore('last');
      opening.onerror = () => resolve(undefined);
      opening.onsuccess = () => {
        const db = opening.result;
        const tx = db.transaction('last', value ? 'readwrite' : 'readonly');
        /** @type {Rotation | undefined} */
        let found;
        if (value) {
          tx.objectStore('last').put(value, 'pair');
        } else {
          const reading = tx.objectStore('last').get('pair');
          reading.onsuccess = () => { found = reading.result; };
        }
        tx.oncomplete = () => { db.close(); resolve(found); };
        tx.onerror = tx.onabort = () => { db.close(); resolve(undefined); };
      };
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * Trade the refresh token for a new pair, once for every call that met the expired `stale`
 * token. Tabs share the pair (localStorage): two tabs meeting the expiry together would send
 * the same refresh token, and the second use is a reuse that ends the session. So a tab
 * refreshes only while it holds the lock `uno-refresh`, and inside it first looks whether
 * another tab rotated the pair meanwhile (the stored access token moved on, or the last
 * rotation traded this very refresh token): then it uses that pair. False when the server
 * refuses (the session is over) or another tab signed out, null when it cannot be reached.
 * @param {string} stale
 * @param {string} TOKEN_KEY  where the access token is kept (`uno.token`)
 * @param {string} REFRESH_KEY  where the refresh token is kept (`uno.refresh`)
 * @returns {Promise<boolean | null>}
 */
export function refreshed(stale, TOKEN_KEY, REFRESH_KEY) {
  /** The stored access token moved on from `stale`: true (a new one: use it), false (none:
   * signed out); null while it is still `stale`. */
  const moved = () => {
    const now = localStorage.getItem(TOKEN_KEY);
    return now === stale ? null : now !== null;
  };
  /** @param {{access: string, refresh: string}} pair */
  const store = (pair) => {
    localStorage.setItem(TOKEN_KEY, pair.access);
    localStorage.setItem(REFRESH_KEY, pair.refresh);
  };
  const before = moved();
  if (before !== null) return Promise.resolve(before);
  refreshing ??= locked(async () => {
    const meanwhile = moved(); // another tab's refresh, done while this one waited for the lock
    if (meanwhile !== null) return meanwhile;
    const refresh = localStorage.getItem(REFRESH_KEY);
    if (!refresh) return false;
    const last = await lastRotation();
    if (last?.spent === refresh) { // done, but its pair has not reached this tab's copy yet
      const now = moved();
      if (now === null) store(last);
      return now ?? true;
    }
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
    store(pair);
    await lastRotation({ spent: refresh, access: pair.access, refresh: pair.refresh }); // before the lock passes on
    return true;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}
