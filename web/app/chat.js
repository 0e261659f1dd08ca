// The table chat (loaded by the table once it shows, and by the replay): the panel
// `data-region="chat"`, an `ol` of `li[data-chat-id]`, the message input, the reactions and the
// mute toggle. Every text goes in with textContent (dom.js `h`): a link is shown as text, never
// as an `a`. Messages come from the game stream's `chat` frames (live.js) and from
// GET .../chat/?after=<id> (on load, after a reconnect, and every few seconds while no stream
// runs); a message id is shown once.

import { call } from './api.js';
import { h, render } from './dom.js';
import { formatDate, refusal, tr } from './i18n.js';

/** @typedef {import('../types/schema').components['schemas']['ChatMessage']} ChatMessage */
/** @typedef {import('../types/schema').components['schemas']['ChatPage']} ChatPage */

/** The reactions (`games/chat_rules.py`): key, English, Portuguese. */
export const REACTIONS = /** @type {const} */ ([
  ['nice', 'Nice!', 'Boa!'],
  ['oops', 'Oops', 'Ups'],
  ['uno', 'UNO!', 'UNO!'],
  ['well_played', 'Well played', 'Bem jogado'],
  ['hurry_up', 'Hurry up', 'Despacha-te'],
]);
// The panel's sheet, off the table page's first load (its weight budget).
if (!document.querySelector('link[href="/app/chat.css"]')) document.head.append(h('link', { rel: 'stylesheet', href: '/app/chat.css' }));

/** Lines kept in the panel. */
const KEPT = 200;
const POLL_MS = 4000;

/** @param {string} id */
const path = (id) => `games/${encodeURIComponent(id)}/chat/`;

/**
 * @param {string} gameId
 * @param {number} after
 * @returns {Promise<ChatPage>}
 */
export function chatList(gameId, after) {
  return call('GET', path(gameId), { query: { after } });
}

/** @param {string | null} reaction */
function reactionName(reaction) {
  const found = REACTIONS.find((r) => r[0] === reaction);
  return found ? tr([found[1], found[2]]) : String(reaction);
}

/**
 * One line: the author, then the text (as text) or the reaction's words.
 * @param {ChatMessage} m
 */
export function chatLine(m) {
  return h('li', { 'data-chat-id': m.id, 'data-version': m.version, 'data-channel': m.channel, class: m.reaction ? 'reaction' : null },
    h('strong', {}, m.author.username), m.channel === 'spectators' ? h('span', { class: 'muted' }, tr([' (watching)', ' (espectador)'])) : null,
    ': ', m.text ?? h('span', { 'data-reaction': m.reaction }, reactionName(m.reaction)));
}

/** @param {boolean} muted */
const muteText = (muted) => (muted ? tr(['Unmute chat', 'Ativar conversa']) : tr(['Mute chat', 'Silenciar conversa']));

/**
 * The panel at the table. `canWrite`: seated, or a spectator of a game with `spectator_chat`.
 * @param {string} gameId
 * @param {boolean} canWrite
 */
export function chatPanel(gameId, canWrite) {
  /** @type {Map<number, ChatMessage>} */
  const known = new Map();
  let last = 0;
  let muted = false;
  let live = false;
  let stopped = false;
  // A polite live region once the messages sent before the page opened are in (they are not
  // read out); after that only new lines are added, so a screen reader hears each message once.
  const list = h('ol', { class: 'chat-lines', 'aria-live': 'off' });
  let filled = false;
  const alert = h('p', { role: 'alert', class: 'error', id: 'chat-alert' });
  const note = h('p', { class: 'muted small' });
  const input = h('input', { id: 'chat-text', type: 'text', maxlength: 200, autocomplete: 'off' });
  const mute = h('button', { type: 'button', 'data-key': 'mute-chat', 'aria-pressed': 'false' }, muteText(false));

  const draw = () => {
    const lines = [...known.values()].sort((a, b) => a.id - b.id).slice(-KEPT);
    const ids = new Set(lines.map((m) => m.id));
    for (const li of [...list.children]) if (!ids.has(Number(li.getAttribute('data-chat-id')))) li.remove();
    const end = Number(list.lastElementChild?.getAttribute('data-chat-id') ?? 0);
    const fresh = lines.filter((m) => m.id > end);
    if (list.childElementCount + fresh.length === lines.length) list.append(...fresh.map(chatLine));
    else render(list, lines.map(chatLine)); // one came out of order
    list.scrollTop = list.scrollHeight;
    note.textContent = muted ? tr(['Chat is muted.', 'Conversa silenciada.']) : lines.length ? '' : tr(['No messages yet.', 'Ainda sem mensagens.']);
    mute.textContent = muteText(muted);
    mute.setAttribute('aria-pressed', String(muted));
  };

  /** @param {ChatMessage[]} messages */
  const add = (messages) => {
    let changed = false;
    for (const m of messages) {
      if (!known.has(m.id) && !muted) {
        known.set(m.id, m);
        changed = true;
      }
      last = Math.max(last, m.id);
    }
    if (changed) draw();
  };

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let clearing;
  /** @param {unknown} error */
  const fail = (error) => {
    const body = /** @type {{body?: {retry_after?: number, until?: string}}} */ (Object(error)).body ?? {};
    const shown = refusal(error, {}, {
      n: body.retry_after ?? '', until: body.until ? formatDate(body.until) : '',
    });
    alert.textContent = shown;
    // "Wait 8 s." is true for 8 s: then it goes (it stayed to the game's end).
    clearTimeout(clearing);
    if (typeof body.retry_after === 'number') {
      clearing = setTimeout(() => { if (alert.textContent === shown) alert.textContent = ''; }, body.retry_after * 1000);
    }
  };

  let reading = false;
  const refresh = async () => {
    if (reading || stopped) return;
    reading = true;
    try {
      const page = await chatList(gameId, muted ? 0 : last);
      muted = page.muted;
      add(page.messages);
      draw();
      if (!filled) {
        filled = true;
        requestAnimationFrame(() => requestAnimationFrame(() => list.setAttribute('aria-live', 'polite')));
      }
    } catch { /* read again later */ } finally {
      reading = false;
    }
  };

  /** @param {{text?: string, reaction?: string}} body */
  const send = async (body) => {
    try {
      /** @type {ChatMessage} */
      const m = await call('POST', path(gameId), { body });
      alert.textContent = '';
      add([m]);
      return true;
    } catch (error) {
      fail(error);
      return false;
    }
  };

  const form = h('form', { class: 'chat-form' },
    h('label', { for: 'chat-text' }, tr(['Message', 'Mensagem'])), input,
    h('button', { type: 'submit' }, tr(['Send', 'Enviar'])));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    void send({ text }).then((ok) => { if (ok && input.value.trim() === text) input.value = ''; });
  });
  const reactions = h('div', { class: 'chat-reactions', role: 'group', 'aria-label': tr(['Reactions', 'Reações']) },
    REACTIONS.map(([key]) => h('button', {
      type: 'button', 'data-reaction': key, 'aria-label': `${reactionName(key)} ${tr(['(reaction)', '(reação)'])}`, onclick: () => void send({ reaction: key }),
    }, reactionName(key))));
  mute.addEventListener('click', async () => {
    try {
      const answer = await call(muted ? 'DELETE' : 'POST', `${path(gameId)}mute/`);
      muted = answer.muted;
      known.clear();
      last = 0;
      alert.textContent = '';
      draw();
      if (!muted) void refresh();
    } catch (error) {
      fail(error);
    }
  });

  const section = h('section', { class: 'chat', 'data-region': 'chat', 'aria-label': tr(['Table chat', 'Conversa da mesa']) },
    h('h2', {}, tr(['Chat', 'Conversa'])), list, note, alert,
    canWrite ? [form, reactions] : null, mute);
  const timer = setInterval(() => { if (!live) void refresh(); }, POLL_MS);
  draw();
  void refresh();

  return {
    section,
    /** The id of the last message seen (the stream's `chat_after`). */
    after: () => last,
    /** A stream's `chat` frame. @param {unknown} data */
    frame: (data) => {
      try {
        const m = JSON.parse(String(data));
        if (m && typeof m.id === 'number' && m.author) add([m]);
      } catch { /* the list brings it */ }
    },
    /** The stream's link: live, or not (then the list is read every few seconds). @param {boolean} on */
    link: (on) => {
      if (on && !live) void refresh(); // what a reconnection may have missed
      live = on;
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
