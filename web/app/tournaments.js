// Tournaments (#/tournaments: the list and a form to create one; #/tournaments/<id>: one
// tournament, its players, standings and rounds, live from its stream, with Join, Withdraw and a
// link to your table). Loaded only when one of these routes is shown.

import { call, session, streamTicket } from './api.js';
import { h, render } from './dom.js';
import { countdown, fill, formatDate, refusal, t, tr } from './i18n.js';
import { go } from './router.js';

/** @typedef {import('./api.js').Schemas['Tournament']} Tournament */
/** @typedef {import('./api.js').Schemas['TournamentSummary']} TournamentSummary */
/** @typedef {import('./api.js').Schemas['TournamentPage']} TournamentPage */
/** @typedef {import('./api.js').Schemas['TournamentStanding']} Standing */
/** @typedef {import('./api.js').Schemas['TournamentRound']} Round */
/** @typedef {Tournament['format']} Format */

/** @type {Record<string, [string, string]>} words of these pages only */
const WORDS = {
  // when it starts (upcoming) or started
  starts: ['starts {date}', 'começa a {date}'],
  started: ['started {date}', 'começou a {date}'],
  // an arena's end, and the time left while it runs
  ends: ['ends {date}', 'termina a {date}'],
  ended: ['ended {date}', 'terminou a {date}'],
  left: ['{t} left', 'faltam {t}'],
  title: ['Tournaments', 'Torneios'],
  none: ['No tournament yet.', 'Ainda não há torneios.'],
  create: ['Create a tournament', 'Criar um torneio'],
  name: ['Name', 'Nome'],
  format: ['Format', 'Formato'],
  swiss: ['Swiss', 'Suíço'],
  arena: ['Arena', 'Arena'],
  duplicate: ['Duplicate', 'Duplicado'],
  swiss_help: ['Rounds seated by standing; nobody meets the same opponent twice where it can be helped.', 'Rondas sentadas pela classificação; ninguém reencontra o mesmo adversário se puder ser evitado.'],
  arena_help: ['For a set time: finish a game and you are seated again at once; two wins in a row double your points.', 'Durante um tempo fixo: acabe um jogo e volta a sentar-se logo; duas vitórias seguidas dobram os pontos.'],
  duplicate_help: ['Every table plays the same deals, seats rotated: the luck of the deal is taken out.', 'Todas as mesas jogam as mesmas mãos, com os lugares rodados: tira-se a sorte da distribuição.'],
  table_size: ['Players per table', 'Jogadores por mesa'],
  rounds: ['Rounds', 'Rondas'],
  minutes: ['Minutes', 'Minutos'],
  starts_at: ['Starts at', 'Começa às'],
  clock: ['Clock', 'Relógio'],
  live: ['Live: 30 s a move', 'Ao vivo: 30 s por jogada'],
  correspondence: ['Correspondence: a day a move', 'Por correspondência: um dia por jogada'],
  target_score: ['Target score', 'Pontuação alvo'],
  bots_allowed: ['Bot accounts may enter', 'Contas de bot podem entrar'],
  upcoming: ['Upcoming', 'Por começar'],
  running: ['Running', 'A decorrer'],
  finished: ['Finished', 'Terminado'],
  players_n: ['{n} players', '{n} jogadores'],
  players_1: ['1 player', '1 jogador'],
  round_of: ['Round {n} of {of}', 'Ronda {n} de {of}'],
  round_n: ['Round {n}', 'Ronda {n}'],
  join: ['Join', 'Entrar'],
  withdraw: ['Withdraw', 'Desistir'],
  joined: ['You take part.', 'A sua inscrição está feita.'],
  withdrawn: ['You withdrew: no new table for you.', 'Desistiu: não terá nova mesa.'],
  your_table: ['Your table is ready: play', 'A sua mesa está pronta: jogar'],
  standings: ['Standings', 'Classificação'],
  rank: ['#', '#'],
  player: ['Player', 'Jogador'],
  points: ['Points', 'Pontos'],
  tiebreak: ['Tiebreak', 'Desempate'],
  games: ['Games', 'Jogos'],
  no_standings: ['Standings show once the first tables finish.', 'A classificação aparece quando as primeiras mesas terminarem.'],
  table_n: ['Table {n}', 'Mesa {n}'],
  deal_n: ['deal {n}', 'mão {n}'],
  bot: ['bot', 'bot'],
  playing: ['playing', 'a jogar'],
  watch: ['Open', 'Abrir'],
  no_rounds: ['No round seated yet.', 'Ainda nenhuma ronda sentada.'],
  entrants: ['Players', 'Jogadores'],
  no_entrants: ['Nobody has joined yet.', 'Ainda ninguém entrou.'],
  withdrew: ['withdrew', 'desistiu'],
  host: ['Host: {name}', 'Organizador: {name}'],
  back: ['All tournaments', 'Todos os torneios'],
};

/** @type {Record<string, [string, string]>} the tournament pages' own words for a refusal (the rest: i18n.js's REFUSALS) */
const REFUSED = {
  not_found: ['No such tournament.', 'Este torneio não existe.'],
};

/** "1 player", "7 players" (in the page's language). @param {number} n */
const playerCount = (n) => (n === 1 ? tr(WORDS.players_1) : fill(tr(WORDS.players_n), { n }));

/**
 * When a tournament starts, or started: "starts 5 Dec 2026, 16:00" ("começa a …").
 * @param {{starts_at: string, status: string}} tournament
 */
const when = (tournament) => fill(tr(tournament.status === 'upcoming' ? WORDS.starts : WORDS.started), { date: formatDate(tournament.starts_at) });

/**
 * An arena's end, or null: "ends 5 Dec 2026, 16:30", on its page while it runs with the time
 * left ("· 12:04 left", ticking: `data-ends`), "ended …" once over.
 * @param {TournamentSummary} tournament
 * @param {boolean} [live]  its page (the list is not drawn again every second)
 */
function arenaEnd(tournament, live = true) {
  const end = tournament.format === 'arena' ? tournament.ends_at : null;
  if (!end) return null;
  const over = tournament.status === 'finished';
  const left = live && tournament.status === 'running' ? h('span', { 'data-ends': end }) : null;
  if (left) tick(left);
  return h('span', { 'data-region': 'ends' },
    h('time', { datetime: end }, fill(tr(over ? WORDS.ended : WORDS.ends), { date: formatDate(end) })), left && ' · ', left);
}

/** An arena's time left written again (every second). @param {HTMLElement} el */
function tick(el) {
  el.textContent = fill(tr(WORDS.left), { t: countdown((Date.parse(el.dataset.ends ?? '') - Date.now()) / 1000) });
}

/** @param {Format} format */
const formatName = (format) => tr(WORDS[format]);

/** @param {TournamentSummary} row */
function statusTag(row) {
  return h('span', { class: `tag ${row.status}`, 'data-status': row.status }, tr(WORDS[row.status]));
}

/** @param {HTMLElement} alert  @param {unknown} error */
function say(alert, error) {
  alert.textContent = refusal(error, REFUSED);
}

/** @param {TournamentSummary} row */
function tournamentItem(row) {
  return h('li', { class: 'game-item', 'data-tournament-id': row.id, 'data-status': row.status },
    h('div', { class: 'game-info' },
      h('strong', {}, h('a', { href: `#/tournaments/${row.id}` }, row.name)), ' ', statusTag(row),
      h('div', { class: 'muted small' },
        `${formatName(row.format)} · ${playerCount(row.player_count)} · ${when(row)}`, row.ends_at && ' · ', arenaEnd(row, false))),
    h('a', { class: 'button', href: `#/tournaments/${row.id}` }, tr(WORDS.watch)));
}

/** A `datetime-local` value a few minutes from now, in the browser's time. */
function soon(minutes = 5) {
  const at = new Date(Date.now() + minutes * 60000);
  at.setSeconds(0, 0);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/** @param {HTMLElement} alert */
function createForm(alert) {
  const name = h('input', { id: 't-name', required: true, maxlength: '100', autocomplete: 'off' });
  const format = h('select', { id: 't-format' },
    ...['swiss', 'arena', 'duplicate'].map((f) => h('option', { value: f }, tr(WORDS[f]))));
  const help = h('p', { class: 'muted small', id: 't-format-help' }, tr(WORDS.swiss_help));
  const size = h('input', { id: 't-size', type: 'number', min: '2', max: '10', value: '4', required: true });
  const rounds = h('input', { id: 't-rounds', type: 'number', min: '1', max: '20', value: '3' });
  const minutes = h('input', { id: 't-minutes', type: 'number', min: '1', max: '1440', value: '30' });
  const roundsRow = h('div', { class: 'field' }, h('label', { for: 't-rounds' }, tr(WORDS.rounds)), rounds);
  const minutesRow = h('div', { class: 'field', hidden: true }, h('label', { for: 't-minutes' }, tr(WORDS.minutes)), minutes);
  const starts = h('input', { id: 't-starts', type: 'datetime-local', value: soon(), required: true });
  const clock = h('select', { id: 't-clock' },
    h('option', { value: '30' }, tr(WORDS.live)), h('option', { value: '86400' }, tr(WORDS.correspondence)));
  const target = h('input', { id: 't-target', type: 'number', min: '1', value: '200' });
  const bots = h('input', { id: 't-bots', type: 'checkbox' });
  const sync = () => {
    const arena = format.value === 'arena';
    roundsRow.hidden = arena;
    minutesRow.hidden = !arena;
    help.textContent = tr(WORDS[`${format.value}_help`]);
  };
  format.addEventListener('change', sync);
  return h('form', { class: 'stack', 'aria-label': tr(WORDS.create), onsubmit: async (/** @type {Event} */ event) => {
    event.preventDefault();
    alert.textContent = '';
    const arena = format.value === 'arena';
    /** @type {import('./api.js').Schemas['TournamentCreateRequest']} */
    const body = {
      name: name.value.trim(),
      format: /** @type {Format} */ (format.value),
      table_size: Number(size.value),
      starts_at: new Date(starts.value).toISOString(),
      settings: { turn_timeout: Number(clock.value), target_score: Number(target.value) },
      bots_allowed: bots.checked,
      ...(arena ? { minutes: Number(minutes.value) } : { rounds: Number(rounds.value) }),
    };
    try {
      /** @type {Tournament} */
      const made = await call('POST', 'tournaments/', { body });
      go(`/tournaments/${made.id}`);
    } catch (error) {
      say(alert, error);
    }
  } },
  h('div', { class: 'field' }, h('label', { for: 't-name' }, tr(WORDS.name)), name),
  h('div', { class: 'field' }, h('label', { for: 't-format' }, tr(WORDS.format)), format, help),
  h('div', { class: 'field' }, h('label', { for: 't-size' }, tr(WORDS.table_size)), size),
  roundsRow, minutesRow,
  h('div', { class: 'field' }, h('label', { for: 't-starts' }, tr(WORDS.starts_at)), starts),
  h('div', { class: 'field' }, h('label', { for: 't-clock' }, tr(WORDS.clock)), clock),
  h('div', { class: 'field' }, h('label', { for: 't-target' }, tr(WORDS.target_score)), target),
  h('div', { class: 'field' }, h('label', {}, bots, ' ', tr(WORDS.bots_allowed))),
  h('button', { type: 'submit', class: 'primary' }, tr(WORDS.create)));
}

/** @param {HTMLElement} root */
export function tournamentsPage(root) {
  const list = h('ul', { class: 'game-list', 'aria-label': tr(WORDS.title) }, h('li', { class: 'muted' }, t('loading')));
  const alert = h('p', { role: 'alert', class: 'error' });
  render(root,
    h('h1', {}, tr(WORDS.title)),
    h('section', { class: 'panel' }, list),
    h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.create)), alert, createForm(alert)));
  void (async () => {
    try {
      /** @type {TournamentPage} */
      const page = await call('GET', 'tournaments/');
      render(list, page.results.length ? page.results.map(tournamentItem) : h('li', { class: 'muted' }, tr(WORDS.none)));
    } catch (error) {
      render(list, h('li', { role: 'alert', class: 'error' }, refusal(error, REFUSED)));
    }
  })();
}

/** A bot account's tag beside its name, as its seat and profile carry it.
 * @param {{bot_account: boolean}} player */
function botTag(player) {
  return player.bot_account ? h('span', { class: 'tag bot-account' }, t('bot_account')) : null;
}

/** @param {Standing[]} standings  @param {number | undefined} me */
function standingsTable(standings, me) {
  if (!standings.some((row) => row.games > 0)) return h('p', { class: 'muted' }, tr(WORDS.no_standings));
  return h('div', { class: 'scroll' }, h('table', { class: 'standings', 'data-region': 'standings' },
    h('thead', {}, h('tr', {},
      ...[WORDS.rank, WORDS.player, WORDS.points, WORDS.tiebreak, WORDS.games].map((w) => h('th', { scope: 'col' }, tr(w))))),
    h('tbody', {}, ...standings.map((row, index) => h('tr', { 'data-player': String(row.player), class: row.player === me ? 'me' : '' },
      h('td', {}, String(index + 1)),
      h('th', { scope: 'row' }, h('a', { href: `#/players/${row.player}` }, row.username), botTag(row)),
      h('td', {}, String(row.points)),
      h('td', {}, String(row.tiebreak)),
      h('td', {}, String(row.games)))))));
}

/**
 * @param {Round} round
 * @param {Map<number, string>} names
 * @param {number | undefined} me
 * @param {boolean} deals  a duplicate round: each table names its deal
 */
function roundSection(round, names, me, deals) {
  return h('section', { class: 'round', 'data-round': String(round.number) },
    h('h3', {}, fill(tr(WORDS.round_n), { n: round.number })),
    h('ul', { class: 'game-list' }, ...round.tables.map((table) => {
      const seated = table.seats.map((id, seat) => table.bots.includes(seat) ? tr(WORDS.bot) : names.get(id) ?? String(id));
      const mine = me !== undefined && table.seats.includes(me);
      return h('li', { class: 'game-item', 'data-game-id': table.game, 'data-finished': String(table.finished) },
        h('div', { class: 'game-info' },
          h('strong', {}, fill(tr(WORDS.table_n), { n: table.table }), deals ? ` · ${fill(tr(WORDS.deal_n), { n: table.deal + 1 })}` : ''),
          h('div', {}, seated.join(', ')),
          h('div', { class: 'muted small' }, table.finished ? tr(WORDS.finished) : tr(WORDS.playing))),
        h('a', { class: mine && !table.finished ? 'button primary' : 'button', href: table.finished ? `#/replay/${table.game}` : `#/game/${table.game}` },
          table.finished ? t('replay') : tr(WORDS.watch)));
    })));
}

/**
 * @param {HTMLElement} root
 * @param {string} id
 */
export function tournamentPage(root, id) {
  const me = session()?.id;
  const alert = h('p', { role: 'alert', class: 'error' });
  const body = h('div', { class: 'stack' }, h('p', { class: 'muted' }, t('loading')));
  render(root, h('p', {}, h('a', { href: '#/tournaments' }, tr(WORDS.back))), alert, body);
  let closed = false;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  let version = 0;
  /** Finished: its stream has nothing more to tell (it ends with `tournament_finished`). */
  let over = false;

  /** @param {'join' | 'withdraw'} what */
  const answer = async (what) => {
    alert.textContent = '';
    try {
      draw(await call('POST', `tournaments/${encodeURIComponent(id)}/${what}/`));
    } catch (error) {
      say(alert, error);
      void load().catch(() => {}); // refused, it is shown as it stands now (started, say)
    }
  };

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let startTimer;
  /** @param {Tournament} tournament */
  const draw = (tournament) => {
    version = Math.max(version, tournament.version);
    over = tournament.status === 'finished';
    // At its start the detail is read again: the read starts a tournament that is due (where no
    // worker did), and the stream then tells of its tables.
    clearTimeout(startTimer);
    const wait = Date.parse(tournament.starts_at) - Date.now();
    if (tournament.status === 'upcoming' && wait < 864e5) startTimer = setTimeout(() => void load().catch(() => {}), Math.max(0, wait) + 1000);
    const names = new Map(tournament.players.map((p) => [p.id, p.username]));
    const you = tournament.you;
    const open = tournament.status === 'upcoming' || (tournament.format === 'arena' && tournament.status === 'running');
    const rounds = tournament.round_count
      ? fill(tr(WORDS.round_of), { n: tournament.round, of: tournament.round_count })
      : '';
    render(body,
      h('h1', { 'data-tournament-id': tournament.id, 'data-version': String(tournament.version) }, tournament.name),
      h('p', {}, statusTag(tournament), ' ', formatName(tournament.format), ' · ',
        playerCount(tournament.player_count), ' · ', when(tournament),
        tournament.status === 'running' && rounds ? ` · ${rounds}` : ''),
      tournament.format === 'arena' ? h('p', {}, arenaEnd(tournament)) : null,
      h('p', { class: 'muted small' }, fill(tr(WORDS.host), { name: tournament.host.username })),
      you?.table ? h('p', {}, h('a', { class: 'button primary', href: `#/game/${you.table}`, 'data-region': 'your-table' }, tr(WORDS.your_table))) : null,
      h('div', { class: 'actions' },
        you && !you.withdrawn ? h('p', {}, tr(WORDS.joined)) : null,
        you?.withdrawn ? h('p', {}, tr(WORDS.withdrawn)) : null,
        // One key for both: drawn again after the answer, the focus goes from Join to Withdraw
        // (and back), where it fell to the top of the page (dom.js's render keeps it by key).
        // One who withdrew may join again while joining is open (the page offered no way back).
        (!you || you.withdrawn) && open ? h('button', { type: 'button', class: 'primary', 'data-key': 'entry', onclick: () => void answer('join') }, tr(WORDS.join)) : null,
        you && !you.withdrawn && tournament.status !== 'finished'
          ? h('button', { type: 'button', 'data-key': 'entry', onclick: () => void answer('withdraw') }, tr(WORDS.withdraw)) : null),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.standings)), standingsTable(tournament.standings, me)),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.entrants)),
        tournament.players.length
          ? h('ul', { class: 'entrants', 'data-region': 'entrants' }, ...tournament.players.map((p) => h('li', { 'data-player': String(p.id), 'data-withdrawn': String(p.withdrawn) },
            h('a', { href: `#/players/${p.id}` }, p.username), botTag(p), p.withdrawn ? ` (${tr(WORDS.withdrew)})` : '')))
          : h('p', { class: 'muted' }, tr(WORDS.no_entrants))),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.rounds)),
        tournament.rounds.length ? [...tournament.rounds].reverse().map((round) => roundSection(round, names, me, tournament.format === 'duplicate')) : h('p', { class: 'muted' }, tr(WORDS.no_rounds))),
    );
  };

  const load = async () => {
    try {
      draw(await call('GET', `tournaments/${encodeURIComponent(id)}/`));
    } catch (error) {
      if (!closed) render(body, h('p', { role: 'alert', class: 'error' }, refusal(error, REFUSED)));
      throw error;
    }
  };

  // The stream says that the log grew; the detail (standings, tables) is read again. A dropped
  // stream is opened again with a new ticket, from the last version shown.
  const follow = async () => {
    if (closed || over) return;
    let ticket;
    try {
      ticket = (await streamTicket()).ticket;
    } catch {
      retryTimer = setTimeout(() => void follow(), 2000);
      return;
    }
    if (closed) return;
    source = new EventSource(`/api/v1/tournaments/${encodeURIComponent(id)}/stream/?ticket=${encodeURIComponent(ticket)}&after=${version}`);
    source.addEventListener('tournament_changed', () => void load().catch(() => {}));
    // Why it ended (docs/api.md, "How a stream ends"): the tournament is over (its detail is read
    // once more), or the sign-in ended (the new ticket's 401 says so now, not in 2 s).
    source.addEventListener('stream_ended', (message) => {
      source?.close();
      source = null;
      if (JSON.parse(message.data).code === 'tournament_finished') void load().catch(() => {});
      else void follow();
    });
    source.onerror = () => {
      source?.close();
      source = null;
      if (!closed) retryTimer = setTimeout(() => { void load().catch(() => {}); void follow(); }, 2000);
    };
  };

  void load().then(() => follow(), () => {});
  const ticking = setInterval(() => body.querySelectorAll('[data-ends]').forEach((el) => tick(/** @type {HTMLElement} */ (el))), 1000);
  return () => {
    clearInterval(ticking);
    closed = true;
    clearTimeout(retryTimer);
    clearTimeout(startTimer);
    source?.close();
  };
}
