// Profiles (#/players/<name or id>) and the leaderboard (#/leaderboard).

import { ApiError, call, claimAccount, session } from './api.js';
import { h, render } from './dom.js';
import { fill, formatDate, formatNumber, refusal, t, tr } from './i18n.js';
import { go } from './router.js';
import { accountSections } from './sessions.js';

/** @type {Record<string, [string, string]>} words of this page only (i18n.js: those pages share) */
const WORDS = {
  keep_away: ['Keep away', 'Manter distância'],
  block: ['Block', 'Bloquear'],
  unblock: ['Unblock', 'Desbloquear'],
  block_help: ['Blocked, you never sit at one table and neither sees the other\'s chat.', 'Bloqueados, nunca se sentam à mesma mesa e nenhum vê o chat do outro.'],
  blocked_now: ['{name} is blocked.', 'Bloqueou {name}.'],
  unblocked_now: ['{name} is no longer blocked.', 'Desbloqueou {name}.'],
  report: ['Report', 'Denunciar'],
  report_reason: ['Reason', 'Motivo'],
  report_note: ['Note (optional)', 'Nota (opcional)'],
  reported: ['Reported. Staff will look at it.', 'Denúncia enviada. A equipa vai analisar.'],
  challenge_player: ['Challenge', 'Desafiar'],
  challenge_sent: ['Challenge sent to {name}.', 'Desafio enviado a {name}.'],
  challenge_live: ['Live: 30 s a move', 'Ao vivo: 30 s por jogada'],
  challenge_correspondence: ['Correspondence: a day a move', 'Por correspondência: um dia por jogada'],
  challenge_blocked: ['You and {name} keep apart (a block): no challenge.', 'Há um bloqueio entre si e {name}: sem desafio.'],
  rating_help: ['Starts at 0, rises with wins in rated games, and can fall below 0.', 'Começa em 0, sobe com as vitórias em jogos com cotação e pode descer abaixo de 0.'],
  rating_parts: ['Estimated skill μ {mu}, uncertainty σ {sigma}: the rating is μ − 3σ.', 'Habilidade estimada μ {mu}, incerteza σ {sigma}: a cotação é μ − 3σ.'],
  on_vacation: ['On vacation until {date}.', 'De férias até {date}.'],
  account_kept: ['Your account is kept: sign in as {name} from now on.', 'A sua conta está guardada: entre como {name} a partir de agora.'],
  vacation_help: ['Up to 14 days a year: your clocks in correspondence games stand still.', 'Até 14 dias por ano: os seus relógios nos jogos por correspondência param.'],
  won: ['Won', 'Ganhos'],
  played: ['Played', 'Jogados'],
  vacation: ['Vacation', 'Férias'],
  more: ['More', 'Mais'],
  keep_account_help: [
    'You are playing as a guest. Choose a username and a password to keep this account and its games; an unclaimed guest is removed after 30 days. Games with a guest are not rated.',
    'Está a jogar como convidado. Escolha um nome de utilizador e uma palavra-passe para guardar esta conta e os seus jogos; um convidado não guardado é removido após 30 dias. Jogos com convidados não contam para a cotação.',
  ],
  end_vacation: ['End vacation', 'Terminar férias'],
  vacation_days: ['Vacation days', 'Dias de férias'],
  joined_on: ['Joined {date}', 'Registado em {date}'],
  start_vacation: ['Start vacation', 'Começar férias'],
  guest_account: ['Guest account', 'Conta de convidado'],
  vacation_ended: ['Vacation ended.', 'Férias terminadas.'],
  keep_account: ['Keep my account', 'Guardar a minha conta'],
  vacation_started: ['Vacation started.', 'Férias começadas.'],
};

/** @typedef {import('./api.js').PublicProfile} PublicProfile */
/** @typedef {import('./api.js').OwnProfile} OwnProfile */
/** @typedef {import('./api.js').Schemas['Rating']} Rating */
/** @typedef {import('./api.js').Schemas['LeaderboardEntry']} Ranked */
/** @typedef {import('./api.js').Schemas['LeaderboardPage']} RankedPage */

/** Names seen in lists, so a profile link can carry a name (#/players/alice). */
const known = new Map();

/** @param {{id: number, username: string}} player */
export function remember(player) {
  known.set(player.username.toLowerCase(), player.id);
}

/**
 * The id of a player named in the route: a number is an id; a name is the caller's, one seen
 * in a list, or asked of the server (`players/by-name/`: any player, a new one too, where only
 * the caller's games and the leaderboard were searched). Null: no such player.
 * @param {string} ref
 * @returns {Promise<number | null>}
 */
async function resolve(ref) {
  if (/^\d+$/.test(ref)) return Number(ref);
  const me = session();
  if (me && me.username.toLowerCase() === ref.toLowerCase()) return me.id;
  const hit = known.get(ref.toLowerCase());
  if (hit !== undefined) return hit;
  try {
    /** @type {PublicProfile} */
    const found = await call('GET', `players/by-name/${encodeURIComponent(ref)}/`);
    remember(found);
    return found.id;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** @param {Rating} rating */
const ratingText = (rating) => formatNumber(rating.ordinal, 1);

/**
 * @param {HTMLElement} root
 * @param {string} ref
 * @param {string} [game]  the game the person came from (a report is about it)
 * @param {string} [seq]  the moment of that game they came from
 */
export async function profilePage(root, ref, game, seq) {
  render(root, h('p', { class: 'muted' }, t('loading')));
  try {
    const id = await resolve(ref);
    if (id === null) {
      render(root, h('p', { role: 'alert', class: 'error' }, t('not_found')));
      return;
    }
    const me = session();
    /** @type {PublicProfile | OwnProfile} */
    const profile = await call('GET', me && me.id === id ? 'players/me/' : `players/${id}/`);
    const stats = profile.stats;
    render(root, h('section', { class: 'panel profile', 'data-player': profile.username },
      h('h1', {}, profile.username, profile.guest ? h('span', { class: 'tag guest' }, t('guest')) : null,
        profile.bot_account ? h('span', { class: 'tag bot-account' }, t('bot_account')) : null),
      kept === profile.username ? h('p', { role: 'status', class: 'kept' }, fill(tr(WORDS.account_kept), { name: profile.username })) : null,
      h('p', { class: 'muted' }, fill(tr(WORDS.joined_on), { date: formatDate(profile.date_joined, 'date') })),
      h('dl', { class: 'stats' },
        [h('dt', {}, t('rating')), h('dd', { 'data-rating': profile.rating.ordinal },
          // One number (the leaderboard's); μ and σ, which it is made of, on hovering.
          h('span', { class: 'rating-value', title: fill(tr(WORDS.rating_parts), { mu: formatNumber(profile.rating.mu, 1), sigma: formatNumber(profile.rating.sigma, 1) }) },
            ratingText(profile.rating)),
          h('div', { class: 'muted small rating-help' }, tr(WORDS.rating_help)))],
        h('dt', {}, t('games_played')), h('dd', {}, stats.games_played),
        h('dt', {}, t('games_won')), h('dd', {}, stats.games_won),
        h('dt', {}, t('games_active')), h('dd', {}, stats.games_active)),
      me && me.id === id && profile.guest ? keepAccount() : null,
      me && me.id === id && 'on_vacation_until' in profile ? vacation(profile.on_vacation_until ?? null) : null,
      me && me.id === id ? accountSections({ password: !profile.guest, bot_account: Boolean(profile.bot_account), email: 'email' in profile ? profile.email : '' }) : null,
      me && me.id !== id ? challengeForm({ id, username: profile.username }) : null,
      me && me.id !== id ? keepAway({ id, username: profile.username }, game, seq) : null));
    kept = '';
  } catch (error) {
    render(root, h('p', { role: 'alert', class: 'error' }, refusal(error)));
  }
}

/** @param {HTMLElement} root */
export async function leaderboardPage(root) {
  const body = h('tbody', {});
  const more = h('button', { type: 'button', hidden: true }, tr(WORDS.more));
  render(root, h('section', { class: 'panel' }, h('h1', {}, t('nav_leaderboard')),
    h('div', { class: 'scroll' }, h('table', { class: 'leaderboard' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('rank')), h('th', { scope: 'col' }, t('player')),
        h('th', { scope: 'col' }, t('rating')), h('th', { scope: 'col' }, tr(WORDS.played)), h('th', { scope: 'col' }, tr(WORDS.won)))),
      body)), more));
  let page = 1;
  const load = async () => {
    try {
      /** @type {RankedPage} */
      const ranked = await call('GET', 'leaderboard/', { query: { page, page_size: 50 } });
      for (const row of ranked.results) {
        remember(row.player);
        const name = row.player.username;
        body.append(h('tr', { 'data-player': name },
          h('td', {}, row.rank),
          h('td', {}, h('a', { href: `#/players/${encodeURIComponent(name)}` }, name), row.bot ? h('span', { class: 'tag' }, t('bot')) : null,
            row.bot_account ? h('span', { class: 'tag bot-account' }, t('bot_account')) : null),
          h('td', {}, ratingText(row.rating)),
          h('td', {}, row.games_played),
          h('td', {}, row.games_won)));
      }
      more.hidden = !ranked.next;
      page += 1;
    } catch (error) {
      root.append(h('p', { role: 'alert', class: 'error' }, refusal(error)));
    }
  };
  more.addEventListener('click', () => void load());
  await load();
}

/**
 * The rule book's vacation: the caller's clocks stand still for up to 14 days a year. While one
 * runs, its end and `End vacation`; otherwise the days and `Start vacation`.
 * @param {string | null} running  the end of the caller's running vacation (their profile's)
 */
function vacation(running) {
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const body = h('div', { class: 'inline' });
  /** @param {string | null} until */
  const show = (until) => {
    form.dataset.onVacation = String(!!until);
    if (until) {
      render(body, h('p', { 'data-until': until }, fill(tr(WORDS.on_vacation), { date: formatDate(until) })),
        h('button', { type: 'button', onclick: () => void send('DELETE') }, tr(WORDS.end_vacation)));
    } else {
      const days = h('input', { id: 'vacation-days', type: 'number', min: 1, max: 14, value: 7, required: true });
      render(body, h('label', { for: 'vacation-days' }, tr(WORDS.vacation_days)), days, h('button', { type: 'submit' }, tr(WORDS.start_vacation)));
    }
  };
  /** @param {'POST' | 'DELETE'} method */
  const send = async (method) => {
    alert.textContent = '';
    status.textContent = '';
    const days = body.querySelector('input');
    try {
      /** @type {import('./api.js').Schemas['Vacation']} */
      const done = await call(method, 'players/me/vacation/', method === 'POST' ? { body: { days: Number(days?.value) } } : {});
      show(method === 'POST' ? done.ends_at : null);
      status.textContent = method === 'POST' ? tr(WORDS.vacation_started) : tr(WORDS.vacation_ended);
    } catch (error) {
      alert.textContent = refusal(error);
      const { code, detail } = /** @type {{code?: string, detail?: string}} */ (Object(error));
      // Refused, the state it was refused in is shown: one running (its end is in the detail), or none.
      if (code === 'not_on_vacation') show(null);
      const running = code === 'already_on_vacation' ? /until (\S+?);/.exec(detail ?? '')?.[1] : undefined;
      if (running && !Number.isNaN(Date.parse(running))) show(running);
    }
  };
  const form = h('form', { class: 'vacation stack', 'aria-labelledby': 'vacation-title', onsubmit: (event) => { event.preventDefault(); void send('POST'); } },
    h('h2', { id: 'vacation-title' }, tr(WORDS.vacation)),
    h('p', { class: 'muted small' }, tr(WORDS.vacation_help)),
    body, alert, status);
  show(running);
  return form;
}

// --- entry: guest, play now, offline ------------------------------------------------------------

/** The name just chosen by a guest who kept the account (its profile says so once). */
let kept = '';

/** A guest keeps the account: a username and a password; the games and the session stay. */
function keepAccount() {
  const username = h('input', { id: 'keep-username', name: 'username', autocomplete: 'username', required: true, maxlength: 150 });
  const password = h('input', { id: 'keep-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const submit = h('button', { type: 'submit', class: 'primary' }, tr(WORDS.keep_account));
  return h('form', { class: 'keep-account stack', 'aria-labelledby': 'keep-title', onsubmit: async (event) => {
    event.preventDefault();
    alert.textContent = '';
    submit.disabled = true;
    try {
      const me = await claimAccount(username.value.trim(), password.value);
      kept = me.username;
      go(`/players/${encodeURIComponent(me.username)}`);
    } catch (error) {
      alert.textContent = refusal(error);
      submit.disabled = false;
    }
  } },
  h('h2', { id: 'keep-title' }, tr(WORDS.guest_account)),
  h('p', { class: 'muted small' }, tr(WORDS.keep_account_help)),
  h('label', { for: 'keep-username' }, t('username')), username,
  h('label', { for: 'keep-password' }, t('password')), password,
  alert, submit);
}

// --- safety: block and report --------------------------------------------------------------------

/** @type {Record<string, [string, string]>} the reasons of a report (players.models.REPORT_REASONS) */
const REASONS = {
  abuse: ['Insults, threats or harassment', 'Insultos, ameaças ou assédio'],
  spam: ['Spam or advertising', 'Spam ou publicidade'],
  cheating: ['Cheating or playing together against others', 'Batota ou conluio contra outros'],
  name: ['An offensive username', 'Um nome ofensivo'],
  other: ['Something else (say what in the note)', 'Outra coisa (explique na nota)'],
};

/**
 * Keeping away from another player: block (both ways: no table together, no chat either way)
 * and report to staff, about the game and the moment the person came from, if any.
 * @param {{id: number, username: string}} player
 * @param {string | undefined} game
 * @param {string | undefined} seq
 */
function keepAway(player, game, seq) {
  const status = h('p', { role: 'status', class: 'muted small' });
  const alert = h('p', { role: 'alert', class: 'error' });
  const blockButton = h('button', { type: 'button', 'data-key': 'block' }, tr(WORDS.block));
  let blocked = false;
  const show = () => {
    blockButton.textContent = blocked ? tr(WORDS.unblock) : tr(WORDS.block);
    blockButton.setAttribute('aria-pressed', String(blocked));
  };
  show();
  void call('GET', 'players/me/blocks/').then((/** @type {import('./api.js').Schemas['BlockList']} */ list) => {
    blocked = list.blocks.some((row) => row.player.id === player.id);
    show();
  }, () => {});
  blockButton.addEventListener('click', async () => {
    alert.textContent = '';
    try {
      await call(blocked ? 'DELETE' : 'POST', `players/${player.id}/block/`);
      blocked = !blocked;
      show();
      status.textContent = blocked ? fill(tr(WORDS.blocked_now), { name: player.username }) : fill(tr(WORDS.unblocked_now), { name: player.username });
    } catch (error) {
      alert.textContent = refusal(error);
    }
  });
  const reason = h('select', { id: 'report-reason', required: true },
    Object.entries(REASONS).map(([code, words]) => h('option', { value: code }, tr(words))));
  const note = h('textarea', { id: 'report-note', maxlength: 500, rows: 2 });
  const send = h('button', { type: 'submit' }, tr(WORDS.report));
  const form = h('form', { class: 'report stack', onsubmit: async (event) => {
    event.preventDefault();
    alert.textContent = '';
    try {
      await call('POST', 'reports/', { body: {
        player: player.id, reason: reason.value, note: note.value.trim(),
        ...(game ? { game } : {}), ...(game && seq ? { seq: Number(seq) } : {}),
      } });
      status.textContent = tr(WORDS.reported);
      form.reset();
    } catch (error) {
      alert.textContent = refusal(error);
    }
  } },
  h('label', { for: 'report-reason' }, tr(WORDS.report_reason)), reason,
  h('label', { for: 'report-note' }, tr(WORDS.report_note)), note, send);
  return h('section', { class: 'keep-away stack', 'aria-labelledby': 'keep-away-title' },
    h('h2', { id: 'keep-away-title' }, tr(WORDS.keep_away)),
    h('p', { class: 'muted small' }, tr(WORDS.block_help)), h('div', {}, blockButton), form, alert, status);
}

/**
 * Challenge the player to a game of two: live or by correspondence, the official rules
 * otherwise. A bot accepts at once: its game opens.
 * @param {{id: number, username: string}} player
 */
function challengeForm(player) {
  const clock = h('select', { id: 'challenge-clock' },
    h('option', { value: '30' }, tr(WORDS.challenge_live)), h('option', { value: '86400' }, tr(WORDS.challenge_correspondence)));
  const status = h('p', { role: 'status', class: 'muted small' });
  const alert = h('p', { role: 'alert', class: 'error' });
  // Pressed once: no second challenge while the first is sent, nor once it is open (a second
  // click made a second one, left open after the first was accepted).
  const submit = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'primary' }, tr(WORDS.challenge_player)));
  return h('form', { class: 'challenge stack', onsubmit: async (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    alert.textContent = '';
    submit.disabled = true;
    try {
      /** @type {import('./api.js').Schemas['Challenge']} */
      const made = await call('POST', 'challenges/', { body: { to: player.username, settings: { turn_timeout: Number(clock.value) } } });
      if (made.game) go(`/game/${made.game}`);
      else status.textContent = fill(tr(WORDS.challenge_sent), { name: player.username });
    } catch (error) {
      submit.disabled = false;
      alert.textContent = refusal(error, { blocked: WORDS.challenge_blocked }, { name: player.username });
    }
  } },
  h('label', { for: 'challenge-clock' }, t('clock')), clock, submit, alert, status);
}
