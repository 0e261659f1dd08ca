// Following a game live: the SSE stream (with a single-use ticket, since EventSource sends no
// headers), reopened with a new ticket and ?after=<last seq> when it drops; after repeated
// failures, the long poll of the event log instead.

import { events, streamTicket } from './api.js';

/** @typedef {import('./api.js').GameEvent} GameEvent */
/** @typedef {'live' | 'reconnecting' | 'polling'} LinkState */

/**
 * Every event type of the schema: EventSource delivers named events only to listeners of that
 * name. Typed so that `tsc` fails when the schema gains a type missing here.
 * @type {{[K in GameEvent['type']]: true}}
 */
const EVENT_TYPES = {
  game_started: true, round_started: true, starter_returned: true, starter_turned: true,
  turn_changed: true, card_played: true, cards_drawn: true, color_discarded: true,
  cards_given: true, pile_reshuffled: true, passed: true, challenged: true, color_chosen: true,
  uno_said: true, uno_caught: true, hands_swapped: true, hands_rotated: true, timed_out: true,
  went_out: true, forfeited: true, round_ended: true, game_ended: true, bank_changed: true,
  seat_taken_over: true,
};

/**
 * A frame's data: the event JSON, or null when it is not that seq's event.
 * @param {unknown} data
 * @param {number} seq
 * @returns {GameEvent | null}
 */
function eventOf(data, seq) {
  try {
    const event = JSON.parse(String(data));
    return event && typeof event === 'object' && event.seq === seq && event.data && typeof event.type === 'string' ? event : null;
  } catch {
    return null;
  }
}

/** Stream failures in a row (without one message between) before falling back to the long poll. */
const MAX_FAILURES = 3;
/** A stream open this long had worked; the long poll tries the stream again this often. */
const STABLE_MS = 30_000;
const RETRY_STREAM_MS = 120_000;

/**
 * Follow a game's events from `after` on. `onEvent` is called with each new seq and its event,
 * as the event log serves it to the caller (null if a frame's data could not be read: the table
 * then reads the view); `onState` with the link's state.
 * @param {string} gameId
 * @param {number} after
 * @param {(seq: number, event: GameEvent | null) => void} onEvent
 * @param {(state: LinkState) => void} onState
 * @param {{after: () => number | null, onChat: (data: unknown) => void}} [chat]  `chat` frames (no id)
 * @returns {{stop: () => void, kick: () => void}}  stop; kick: reconnect now (e.g. back online)
 */
export function follow(gameId, after, onEvent, onState, chat) {
  let last = after;
  let failures = 0;
  let stopped = false;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {AbortController | null} */
  let poll = null;
  let polling = false;

  /** @param {MessageEvent} message */
  const onMessage = (message) => {
    failures = 0;
    const seq = Number(message.lastEventId);
    if (!Number.isFinite(seq) || seq <= last) return;
    last = seq;
    onEvent(seq, eventOf(message.data, seq));
  };

  const open = async () => {
    if (stopped) return;
    let ticket;
    try {
      ticket = (await streamTicket()).ticket;
    } catch {
      return retry();
    }
    if (stopped) return;
    const chatAfter = chat?.after();
    const url = `/api/v1/games/${encodeURIComponent(gameId)}/stream/?ticket=${encodeURIComponent(ticket)}&after=${last}${chatAfter ? `&chat_after=${chatAfter}` : ''}`;
    source = new EventSource(url);
    if (chat) source.addEventListener('chat', (m) => { failures = 0; chat.onChat(m.data); });
    for (const type of Object.keys(EVENT_TYPES)) source.addEventListener(type, onMessage);
    source.addEventListener('message', onMessage);
    let openedAt = 0;
    source.onopen = () => {
      openedAt = Date.now();
      onState('live');
    };
    source.onerror = () => {
      // The browser would retry with the same (used) ticket: close, and reopen with a new one.
      // A stream that stayed open a while (a quiet game behind a proxy that cuts idle
      // connections) was no failure.
      source?.close();
      source = null;
      if (openedAt && Date.now() - openedAt > STABLE_MS) failures = 0;
      failures += 1;
      retry();
    };
  };

  const retry = () => {
    if (stopped) return;
    if (failures >= MAX_FAILURES) {
      onState('polling');
      polling = true;
      void longPoll();
      return;
    }
    onState('reconnecting');
    timer = setTimeout(() => void open(), 500 * 2 ** failures);
  };

  const longPoll = async () => {
    const since = Date.now();
    while (!stopped && polling) {
      if (Date.now() - since > RETRY_STREAM_MS) {
        polling = false;
        failures = MAX_FAILURES - 1;
        void open();
        return;
      }
      poll = new AbortController();
      try {
        const page = await events(gameId, last, { wait: 25, signal: poll.signal });
        for (const event of page.events) {
          if (event.seq > last) {
            last = event.seq;
            onEvent(event.seq, event);
          }
        }
        // A finished game answers at once: never spin.
        if (!page.events.length) await new Promise((resolve) => { timer = setTimeout(resolve, 1000); });
      } catch {
        if (stopped || !polling) return;
        await new Promise((resolve) => { timer = setTimeout(resolve, 3000); });
      }
    }
  };

  void open();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      poll?.abort();
    },
    kick: () => {
      if (stopped || source) return;
      clearTimeout(timer);
      polling = false;
      poll?.abort();
      poll = null;
      failures = 0;
      void open();
    },
  };
}
