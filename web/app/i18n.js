// English and Portuguese: the words pages share, in one table (a page's own words are in its
// module, `WORDS`, read through `tr`), and the dates and numbers in the page's language. The
// language follows the browser until the switch picks one (kept in localStorage). The action
// buttons' English names are hooks for tests (HOOKS.md).

import './locales.js';

/** @typedef {'en' | 'pt'} Lang */

const STRINGS = {
  switch_lang: ['Português', 'English'],
  nav_lobby: ['Lobby', 'Salão'],
  nav_main: ['Main', 'Principal'],
  skip_to_content: ['Skip to content', 'Saltar para o conteúdo'],
  nav_inbox: ['Inbox', 'Avisos'],
  nav_leaderboard: ['Leaderboard', 'Classificação'],
  nav_tournaments: ['Tournaments', 'Torneios'],
  sign_in: ['Sign in', 'Entrar'],
  sign_out: ['Sign out', 'Sair'],
  register: ['Register', 'Registar'],
  username: ['Username', 'Nome de utilizador'],
  password: ['Password', 'Palavra-passe'],
  url: ['Address (URL)', 'Endereço (URL)'],
  kinds: ['Notifications sent', 'Avisos enviados'],
  current_password: ['Current password', 'Palavra-passe atual'],
  new_password: ['New password', 'Nova palavra-passe'],
  email: ['E-mail address', 'Endereço de e-mail'],
  loading: ['Loading…', 'A carregar…'],
  // games and their settings (a refusal's field is named by its word here: `max_players`, …)
  players_n: ['{n}/{max} players', '{n}/{max} jogadores'],
  bots_fill_in: ['Bots take the free seats in {time}', 'Os bots ocupam os lugares livres dentro de {time}'],
  bots_filling: ['Bots are taking the free seats…', 'Os bots estão a ocupar os lugares livres…'],
  join: ['Join', 'Entrar no jogo'],
  open: ['Open', 'Abrir'],
  replay: ['Replay', 'Repetição'],
  fill_with_bots_after: ['Bots after (seconds)', 'Bots após (segundos)'],
  join_code: ['Invite code', 'Código de convite'],
  max_players: ['Players', 'Jogadores'],
  target_score: ['Target score', 'Pontuação alvo'],
  turn_timeout: ['Time per turn', 'Tempo por jogada'],
  max_timeouts: ['Timeouts before forfeit', 'Tempos esgotados até desistência'],
  clock: ['Clock', 'Relógio'],
  clock_move: ['Per move', 'Por jogada'],
  clock_bank: ['Time bank', 'Banco de tempo'],
  preset: ['Start from', 'Partir de'],
  teams: ['Teams', 'Equipas'],
  bots: ['Bots', 'Bots'],
  bot_level: ['Bot level', 'Nível do bot'],
  bot_random: ['random', 'aleatório'],
  bot_basic: ['basic', 'básico'],
  bot_strong: ['strong', 'forte'],
  bot_takeover: ['A bot plays on for a seat that forfeits', 'Um bot continua por quem desiste'],
  settings: ['Settings', 'Definições'],
  seconds: ['{n} s', '{n} s'],
  minutes: ['{n} min', '{n} min'],
  hours: ['{n} h', '{n} h'],
  days: ['{n} days', '{n} dias'],
  // the table
  waiting_players: ['Waiting for players…', 'À espera de jogadores…'],
  add_bot: ['Add bot', 'Adicionar bot'],
  start: ['Start', 'Começar'],
  leave: ['Leave', 'Sair do jogo'],
  resign: ['Resign', 'Desistir'],
  resign_confirm: ['Resign this game for good?', 'Desistir deste jogo de vez?'],
  invite_link: ['Invite link', 'Ligação de convite'],
  copy: ['Copy', 'Copiar'],
  copied: ['Copied', 'Copiado'],
  your_hand: ['Your hand', 'A sua mão'],
  discard_pile: ['Discard pile', 'Monte de descarte'],
  draw_pile_n: ['{n} to draw', '{n} para comprar'],
  seats: ['Players', 'Jogadores'],
  your_turn: ['Your turn', 'É a sua vez'],
  turn_of: ['{name} to play', 'Vez de {name}'],
  with_players: ['With {names}', 'Com {names}'],
  cards_n: ['{n} cards', '{n} cartas'],
  card_1: ['1 card', '1 carta'],
  score_n: ['{n} pts', '{n} pts'],
  uno_said: ['UNO', 'UNO'],
  you: ['you', 'eu'],
  bot: ['bot', 'bot'],
  bot_account: ['bot account', 'conta bot'],
  forfeited: ['forfeited', 'desistiu'],
  out: ['out', 'fora'],
  on_vacation: ['on vacation', 'de férias'],
  direction: ['Direction', 'Sentido'],
  clockwise: ['clockwise', 'horário'],
  counterclockwise: ['counter-clockwise', 'anti-horário'],
  current_color: ['Colour: {color}', 'Cor: {color}'],
  deadline: ['Time left: {t}', 'Tempo restante: {t}'],
  bank_left: ['bank {t}', 'banco {t}'],
  round_n: ['Round {n}', 'Ronda {n}'],
  team_n: ['team {n}', 'equipa {n}'],
  draw: ['Draw', 'Comprar'],
  pass: ['Pass', 'Passar'],
  uno: ['UNO!', 'UNO!'],
  uno_armed: ['UNO! is said with your next card', 'UNO! será dito com a próxima carta'],
  uno_first: ['Down to one card? Press UNO! first, then the card.', 'Vai ficar com uma carta? Carregue em UNO! e depois na carta.'],
  catch: ['Catch', 'Apanhar'],
  catch_name: ['Catch {name}', 'Apanhar {name}'],
  challenge: ['Challenge', 'Desafiar'],
  actions: ['Actions', 'Ações'],
  accept: ['Accept', 'Aceitar'],
  select_several: ['Select several', 'Escolher várias'],
  play_selected: ['Play selected', 'Jogar escolhidas'],
  choose_color: ['Choose a colour', 'Escolha uma cor'],
  choose_seat: ['Choose a player', 'Escolha um jogador'],
  no_swap: ['No swap', 'Sem troca'],
  give_cards: ['Give up to two cards (optional)', 'Dar até duas cartas (opcional)'],
  give_to: ['Give to', 'Dar a'],
  give_nothing: ['Give nothing', 'Não dar nada'],
  cancel: ['Cancel', 'Cancelar'],
  pending_wd4: ['{name} played a wild draw 4 on you: challenge or accept (draw {n}).', '{name} jogou um +4 contra si: desafie ou aceite (comprar {n}).'],
  pending_penalty: ['{n} cards owed: stack or draw.', '{n} cartas em dívida: acumule ou compre.'],
  pending_drawn: ['You drew {card}: play it or pass.', 'Comprou {card}: jogue-a ou passe.'],
  pending_color: ['Name the colour of the starter wild.', 'Escolha a cor do joker inicial.'],
  // the round's and the game's ends: the viewer in the second person (`_mine`), as the feed says it
  round_over: ['Round {n} over: {name} went out.', 'Ronda {n} terminada: {name} ficou sem cartas.'],
  round_over_mine: ['Round {n} over: you went out.', 'Ronda {n} terminada: ficou sem cartas.'],
  points_n: ['+{n} points', '+{n} pontos'],
  game_over_title: ['Game over', 'Fim do jogo'],
  game_abandoned_title: ['Game abandoned', 'Jogo abandonado'],
  game_over: ['{name} wins!', '{name} ganhou!'],
  game_over_mine: ['You win!', 'Ganhou!'],
  game_over_team: ['Team {n} wins!', 'A equipa {n} ganhou!'],
  game_over_team_mine: ['Your team wins!', 'A sua equipa ganhou!'],
  game_abandoned: ['This game was abandoned.', 'Este jogo foi abandonado.'],
  rematch: ['Rematch', 'Desforra'],
  export: ['Export', 'Exportar'],
  fair_deck: ['Fair deck', 'Baralho justo'],
  deck_commitment: ['Deck commitment', 'Compromisso do baralho'],
  fair_ok: ['✓ the seed and salt match the commitment', '✓ a semente e o sal correspondem ao compromisso'],
  fair_bad: ['✗ the seed and salt do not match the commitment', '✗ a semente e o sal não correspondem ao compromisso'],
  spectating: ['You are watching this game.', 'Está a ver este jogo.'],
  bot_plays_your_seat: ['You left this game: a bot plays your seat. You are watching.', 'Saiu deste jogo: um bot joga no seu lugar. Está a ver.'],
  live: ['live', 'ao vivo'],
  reconnecting: ['reconnecting…', 'a religar…'],
  polling: ['updating', 'a atualizar'],
  moves: ['Moves', 'Jogadas'],
  no_moves: ['No moves yet.', 'Ainda sem jogadas.'],
  colorblind: ['Colour-blind mode', 'Modo daltónico'],
  // replay
  position: ['Position', 'Posição'],
  // profiles
  games_played: ['Games played', 'Jogos'],
  games_won: ['Games won', 'Vitórias'],
  games_active: ['Games in progress', 'Jogos a decorrer'],
  rating: ['Rating', 'Cotação'],
  rank: ['#', '#'],
  player: ['Player', 'Jogador'],
  not_found: ['Not found.', 'Não encontrado.'],
  // colours
  red: ['Red', 'Vermelho'],
  yellow: ['Yellow', 'Amarelo'],
  green: ['Green', 'Verde'],
  blue: ['Blue', 'Azul'],
  wild: ['Wild', 'Joker'],
  'wild-draw4': ['Wild draw 4', 'Joker +4'],
  skip: ['skip', 'salta'],
  reverse: ['reverse', 'inverte'],
  draw2: ['draw 2', '+2'],
  scoring: ['Scoring', 'Pontuação'],
  uno_penalty: ['Cards for a missed UNO', 'Cartas por UNO esquecido'],
  bluff_penalty: ['Cards for a caught bluff', 'Cartas por bluff apanhado'],
  // chat (a refused message's field)
  text: ['Message', 'Mensagem'],
  // challenges
  challenges: ['Challenges', 'Desafios'],
  // entry: guest, play now, offline
  guest: ['guest', 'convidado'],
  offline: ['You are offline. The games come back when the connection does.', 'Está offline. Os jogos voltam quando a ligação voltar.'],
};

/**
 * A refusal's words by its code: every code of the API (`ERROR_CODES` in unoservice/errors.py;
 * tests/web/test_refusal_words.py holds the two lists equal), `network` (the server out of
 * reach) and `server_error` (also an `http_5xx` without a body). A page's own words for a code
 * (refusal()'s `words`: an unknown game, an unknown tournament) come first; `{name}`s are filled
 * from refusal()'s `vars`. A body naming fields is said field by field (CHECKS).
 * @type {Record<string, [string, string]>}
 */
export const REFUSALS = {
  // the client's own
  network: ['Cannot reach the server now.', 'Sem ligação ao servidor agora.'],
  // a move at the table (the engine's codes)
  invalid: ['The request was malformed: reload the page and try again.', 'O pedido estava mal formado: recarregue a página e tente de novo.'],
  invalid_rules: ['These house rules do not go together, or one is out of range.', 'Estas regras da casa não se combinam, ou uma está fora do intervalo.'],
  invalid_deck: ['That deck is not the 108 cards, each once.', 'Esse baralho não tem as 108 cartas, cada uma uma só vez.'],
  invalid_clock: ['That clock is out of range.', 'Esse relógio está fora do intervalo permitido.'],
  not_a_player: ['You have no seat in this game.', 'Não tem lugar neste jogo.'],
  not_your_turn: ['It is not your turn.', 'Não é a sua vez.'],
  game_not_active: ['This game is not being played.', 'Este jogo não está a decorrer.'],
  card_not_in_hand: ['That card is not in your hand.', 'Essa carta não está na sua mão.'],
  illegal_card: ['That card cannot be played now.', 'Essa carta não pode ser jogada agora.'],
  color_required: ['Choose a colour first.', 'Escolha primeiro uma cor.'],
  target_required: ['Choose a player first.', 'Escolha primeiro um jogador.'],
  invalid_target: ['That player cannot be chosen for this.', 'Esse jogador não pode ser escolhido para isto.'],
  answer_required: ['A Wild draw 4 was played on you: challenge it or accept it.', 'Jogaram-lhe um Joker +4: desafie-o ou aceite-o.'],
  already_drawn: ['You have drawn already: play the drawn card or pass.', 'Já comprou: jogue a carta comprada ou passe.'],
  nothing_to_pass: ['You can pass only after drawing.', 'Só pode passar depois de comprar.'],
  must_play: ['You must play a card now.', 'Tem de jogar uma carta agora.'],
  illegal_gift: ['Give one or two cards, and keep one at least.', 'Dê uma ou duas cartas, e fique com uma pelo menos.'],
  nothing_to_challenge: ['There is no Wild draw 4 to challenge.', 'Não há nenhum Joker +4 para desafiar.'],
  nothing_to_choose: ['There is no colour to choose now.', 'Não há cor para escolher agora.'],
  cannot_say_uno: ['UNO is said once, holding one card.', 'Diz-se UNO uma vez, com uma só carta na mão.'],
  nothing_to_catch: ['There is no missing UNO to call out now.', 'Não há nenhum UNO em falta para apontar agora.'],
  // accounts and sessions
  invalid_credentials: ['Wrong username or password.', 'Nome de utilizador ou palavra-passe errados.'],
  not_authenticated: ['You are not signed in: sign in again.', 'A sessão não está iniciada: entre de novo.'],
  token_expired: ['Your session has expired: sign in again.', 'A sessão expirou: entre de novo.'],
  token_reused: ['This session was ended: sign in again.', 'Esta sessão foi terminada: entre de novo.'],
  username_taken: ['That username is taken.', 'Esse nome de utilizador já está ocupado.'],
  username_reserved: ['Names like "guest-…", "deleted-…" or "bot-basic-1" are the service’s: choose another.', 'Nomes como "guest-…", "deleted-…" ou "bot-basic-1" são do serviço: escolha outro.'],
  not_a_guest: ['This account is kept already.', 'Esta conta já está guardada.'],
  link_invalid: ['This link is malformed, expired or already used: ask for a new one.', 'Esta ligação está mal formada, expirou ou já foi usada: peça uma nova.'],
  already_on_vacation: ['You are on vacation already.', 'Já está de férias.'],
  not_on_vacation: ['You are not on vacation.', 'Não está de férias.'],
  vacation_days_used_up: ['That would pass the 14 vacation days this year allows.', 'Isso passaria os 14 dias de férias que este ano permite.'],
  url_refused: ['That address cannot be used: it does not exist, or it is a private one.', 'Esse endereço não pode ser usado: não existe, ou é privado.'],
  limit_reached: ['You have as many of these as allowed: remove one first.', 'Já tem o máximo permitido: remova um primeiro.'],
  push_not_configured: ['This server sends no push notifications.', 'Este servidor não envia notificações push.'],
  // who may do what
  permission_denied: ['Only the game\'s host or the staff may do this.', 'Só quem criou o jogo ou a moderação o pode fazer.'],
  not_found: ['Not found: it does not exist, or is not yours to see.', 'Não encontrado: não existe, ou não o pode ver.'],
  blocked: ['You and a player here keep apart (a block).', 'Há um bloqueio entre si e um jogador aqui.'],
  // games and challenges
  invite_code_unknown: ['No game has this invite code.', 'Nenhum jogo tem este código de convite.'],
  already_seated: ['You have a seat in this game already.', 'Já tem lugar neste jogo.'],
  game_full: ['Every seat of this game is taken.', 'Todos os lugares deste jogo estão ocupados.'],
  game_not_waiting: ['This game has started or was abandoned.', 'Este jogo já começou ou foi abandonado.'],
  game_not_finished: ['This game is not over yet.', 'Este jogo ainda não terminou.'],
  not_enough_players: ['A game starts with two players or more.', 'Um jogo começa com dois ou mais jogadores.'],
  too_many_waiting_games: ['You wait in as many games as you may: start or leave one first.', 'Já espera em tantos jogos quantos pode: comece ou saia de um primeiro.'],
  version_conflict: ['The game moved on meanwhile: here it is as it stands.', 'O jogo avançou entretanto: eis como está agora.'],
  seq_out_of_range: ['That move is not in this game.', 'Essa jogada não existe neste jogo.'],
  cannot_challenge_yourself: ['A challenge goes to another player.', 'Um desafio é para outro jogador.'],
  challenge_expired: ['This challenge has expired.', 'Este desafio expirou.'],
  challenge_not_open: ['This challenge was answered or cancelled already.', 'Este desafio já foi respondido ou cancelado.'],
  // chat (`{n}`: seconds to wait; `{until}`: a date)
  chat_too_fast: ['Too many messages: wait {n} s.', 'Demasiadas mensagens: espere {n} s.'],
  chat_silenced: ['Your chat is silenced until {until}.', 'A sua conversa está silenciada até {until}.'],
  chat_not_allowed: ['Only the players chat in this game.', 'Neste jogo só os jogadores conversam.'],
  // bot accounts and tournaments
  account_has_played: ['A bot account is made of an account that has not played yet.', 'Uma conta bot faz-se de uma conta que ainda não jogou.'],
  guest_account: ['A guest account cannot become a bot account: keep it first.', 'Uma conta de convidado não pode ser conta bot: guarde-a primeiro.'],
  in_tournament_without_bots: ['Withdraw first from the tournaments that do not allow bots.', 'Desista primeiro dos torneios que não aceitam bots.'],
  bot_account_scope: ['A bot account cannot do this.', 'Uma conta bot não pode fazer isto.'],
  bots_not_welcome: ['This game does not take bot accounts.', 'Este jogo não aceita contas bot.'],
  not_a_bot_account: ['No bot account has this username.', 'Nenhuma conta bot tem este nome de utilizador.'],
  invalid_table_size: ['A table seats 2 to 10 players.', 'Uma mesa tem de 2 a 10 jogadores.'],
  start_in_past: ['The start must be in the future, and within a year.', 'O início tem de ser no futuro, e dentro de um ano.'],
  tournament_started: ['This tournament has started: it takes no new players.', 'Este torneio já começou: não aceita novos jogadores.'],
  tournament_finished: ['This tournament is over.', 'Este torneio terminou.'],
  tournament_already_joined: ['You take part in this tournament already.', 'Já participa neste torneio.'],
  tournament_full: ['This tournament has as many players as it may take.', 'Este torneio já tem tantos jogadores quantos pode aceitar.'],
  tournament_not_joined: ['You do not take part in this tournament (or have withdrawn already).', 'Não participa neste torneio (ou já desistiu).'],
  bots_not_allowed: ['This tournament\'s host does not allow bot accounts.', 'O organizador deste torneio não aceita contas bot.'],
  // the request itself, and the server
  method_not_allowed: ['The server does not take this request: reload the page.', 'O servidor não aceita este pedido: recarregue a página.'],
  not_acceptable: ['The server answers only JSON: reload the page.', 'O servidor só responde em JSON: recarregue a página.'],
  unsupported_media_type: ['The server takes only JSON: reload the page.', 'O servidor só aceita JSON: recarregue a página.'],
  length_required: ['The request did not say its length: try again.', 'O pedido não indicou o seu tamanho: tente de novo.'],
  request_too_large: ['That is too large to send.', 'Isso é grande demais para enviar.'],
  idempotency_key_reused: ['This request was sent before with other contents: reload and try again.', 'Este pedido já foi enviado com outro conteúdo: recarregue e tente de novo.'],
  throttled: ['Too many requests: wait a moment.', 'Demasiados pedidos: espere um momento.'],
  server_error: ['The server failed: try again.', 'O servidor falhou: tente de novo.'],
  unavailable: ['The server is busy: try again shortly.', 'O servidor está ocupado: tente de novo daqui a pouco.'],
  conflict_retry: ['Another change came at the same moment: try again.', 'Outra alteração chegou no mesmo instante: tente de novo.'],
};

/** A page's own words for refusals about one game (its table, its replay): an unknown game. */
export const GAME_REFUSALS = { not_found: /** @type {[string, string]} */ (['No such game.', 'Este jogo não existe.']) };

/**
 * A field's refusal in the reader's words, by its code in the body's `fields` (`{"password":
 * [{"code": "password_too_short", "limit": 8, …}]}`); `{n}` is its `limit`. A check without
 * words (here or the page's) is the server's `message` in English, OTHER_CHECK in Portuguese.
 * @type {Record<string, [string, string]>}
 */
const CHECKS = {
  required: ['required', 'preenchimento obrigatório'],
  blank: ['required', 'preenchimento obrigatório'],
  null: ['required', 'preenchimento obrigatório'],
  max_length: ['at most {n} characters', 'no máximo {n} caracteres'],
  min_length: ['at least {n} characters', 'pelo menos {n} caracteres'],
  max_value: ['at most {n}', 'no máximo {n}'],
  min_value: ['at least {n}', 'no mínimo {n}'],
  max_items: ['at most {n} items', 'no máximo {n} elementos'],
  min_items: ['choose at least {n}', 'escolha pelo menos {n}'],
  unknown_field: ['not a field this takes', 'não é um campo aceite'],
  invalid_choice: ['not one of the choices', 'não é uma das opções'],
  password_too_short: ['too short (at least {n} characters)', 'demasiado curta (pelo menos {n} caracteres)'],
  password_too_common: ['too common', 'demasiado comum'],
  password_entirely_numeric: ['cannot be only digits', 'não pode ter só algarismos'],
  password_too_similar: ['too similar to the username', 'demasiado parecida com o nome de utilizador'],
};
/** A check without words in CHECKS, in Portuguese (English says the server's own message). */
const OTHER_CHECK = 'não é válido';
/** A username's `invalid`: the characters Django's username validator takes. */
const USERNAME_CHARACTERS = /** @type {[string, string]} */ (['only letters, digits and @ . + - _', 'só letras, algarismos e @ . + - _']);
/** An e-mail address's `invalid` (Django's EmailValidator). */
const NOT_AN_ADDRESS = /** @type {[string, string]} */ (['not an e-mail address', 'não é um endereço de e-mail']);

/** @typedef {keyof typeof STRINGS} Key */

const saved = localStorage.getItem('uno.lang');
/** @type {Lang} */
let lang = saved === 'en' || saved === 'pt' ? saved : navigator.language.toLowerCase().startsWith('pt') ? 'pt' : 'en';

export function currentLang() {
  return lang;
}

/**
 * The language picked on the switch, told to the service worker, which words push notifications
 * (sw.js) and cannot read localStorage: it reads it from the `uno-settings` cache (`/settings/lang`).
 * @param {Lang} chosen
 */
function keepForWorker(chosen) {
  if (!('caches' in globalThis)) return; // not a secure context: no service worker either
  void caches.open('uno-settings')
    .then((cache) => cache.put('/settings/lang', new Response(chosen)))
    .catch(() => {}); // storage refused (a private window): the worker follows the browser
}
if (saved === 'en' || saved === 'pt') keepForWorker(saved);

/** @param {Lang} next */
export function setLang(next) {
  lang = next;
  localStorage.setItem('uno.lang', next);
  keepForWorker(next);
  document.documentElement.lang = next;
}

/**
 * A string in the current language, `{name}` placeholders filled from `vars`.
 * @param {Key} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(key, vars) {
  const text = STRINGS[key][lang === 'pt' ? 1 : 0];
  return vars ? fill(text, vars) : text;
}

/**
 * `{name}` placeholders of `text` filled from `vars`.
 * @param {string} text
 * @param {Record<string, string | number>} vars
 */
export function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

/**
 * A string picked from an inline pair: for texts used in one place only (rule explanations).
 * @param {[string, string]} pair
 */
export function tr(pair) {
  return pair[lang === 'pt' ? 1 : 0];
}

/**
 * A refusal (api.js's ApiError, or anything thrown) in the reader's language: its `fields` as
 * `<field>: <its checks>`, else the words for its `code` in `words` (the page's own) or REFUSALS
 * (an `http_5xx` without a body: `server_error`), `{name}`s from `vars`; the server's `detail`
 * (English) only for a code unknown here (a newer server's). Every page's refusals come here.
 * @param {unknown} error
 * @param {Record<string, [string, string]>} [words]
 * @param {Record<string, string | number>} [vars]
 */
export function refusal(error, words = {}, vars = {}) {
  const { code, detail, body } = /** @type {{code?: string, detail?: string, body?: {fields?: unknown}}} */ (Object(error));
  const fields = fieldErrors(body?.fields, words);
  if (fields) return fields.map(([, label, said]) => (label ? `${label}: ${said}` : said[0].toUpperCase() + said.slice(1))).join(' ');
  const key = code && /^http_5\d\d$/.test(code) ? 'server_error' : code;
  const pair = key ? words[key] ?? (Object.hasOwn(REFUSALS, key) ? REFUSALS[key] : null) : null;
  if (pair) return fill(tr(pair), vars);
  return detail ?? String(error);
}

/**
 * A form's call as the pages make it: its alert and status emptied, its button off meanwhile,
 * and a refusal in its alert, in the reader's words (`words`: the form's own first, as
 * `refusal` takes them).
 * @param {{button: HTMLButtonElement, alert: HTMLElement, status?: HTMLElement}} form
 * @param {() => Promise<void>} run
 * @param {Record<string, [string, string]>} [words]
 */
export async function submitting({ button, alert, status }, run, words = {}) {
  alert.textContent = '';
  if (status) status.textContent = '';
  button.disabled = true;
  try {
    await run();
  } catch (error) {
    alert.textContent = refusal(error, words);
  } finally {
    button.disabled = false;
  }
}

/**
 * A refusal's `fields` as `[path, label, checks]` in the reader's words (`words` first: a check by
 * its code, `{…}` its params; a field by its name), label '' for the whole body; null for none.
 * @param {unknown} fields
 * @param {Record<string, [string, string]>} [words]
 * @returns {[string, string, string][] | null}
 */
export function fieldErrors(fields, words = {}) {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return null;
  const entries = Object.entries(fields);
  if (!entries.length) return null;
  const shared = { .../** @type {Record<string, [string, string]>} */ (/** @type {unknown} */ (STRINGS)), ...words };
  return entries.map(([path, checks]) => {
    const field = path.split('.').at(-1) ?? path;
    const said = (Array.isArray(checks) ? checks : []).map((/** @type {{code?: string, message?: string, limit?: number}} */ check) => {
      const pair = check.code === 'invalid' && field === 'username' ? USERNAME_CHARACTERS
        : check.code === 'invalid' && field === 'email' ? NOT_AN_ADDRESS : words[check.code ?? ''] ?? CHECKS[check.code ?? ''];
      if (pair) return fill(tr(pair), { .../** @type {Record<string, string>} */ (check), n: check.limit === undefined ? '' : formatNumber(check.limit) });
      return lang === 'pt' ? OTHER_CHECK : String(check.message ?? '').replace(/\.$/, '');
    });
    const label = field === 'non_field_errors' ? '' : field === 'code' ? t('join_code') : shared[field] && !/[{]/.test(shared[field][0]) ? tr(shared[field]) : path;
    return [path, label, `${said.join('; ')}.`];
  });
}

/**
 * A card's name: "Red 7", "Blue skip", "Wild draw 4".
 * @param {string} code
 */
export function cardName(code) {
  if (code === 'wild' || code === 'wild-draw4') return t(code);
  const [color, face] = code.split('-');
  const faceName = face === 'skip' || face === 'reverse' || face === 'draw2' ? t(face) : face;
  return `${t(/** @type {Key} */ (color))} ${faceName}`;
}

// Every date and number the page shows is formatted here (formatDate, formatNumber), in its
// language's locale (locales.js); a language switch draws the page again.

/**
 * A moment in the page's language (and the browser's time zone): `datetime` "4 Dec 2026, 15:30"
 * ("04/12/2026, 15:30"), `date` "4 Dec 2026" ("04/12/2026"), `day` "4 December" ("4 de
 * dezembro"; with the year when it is not this year's).
 * @param {string | number | Date} when
 * @param {'datetime' | 'date' | 'day'} [style]
 */
export function formatDate(when, style = 'datetime') {
  const date = new Date(when);
  /** @type {Intl.DateTimeFormatOptions} */
  const options = style === 'date' ? { dateStyle: 'medium' }
    : style === 'day' ? { day: 'numeric', month: 'long', year: date.getFullYear() === new Date().getFullYear() ? undefined : 'numeric' }
      : { dateStyle: 'medium', timeStyle: 'short' };
  return new Intl.DateTimeFormat(LOCALES[lang], options).format(date);
}

/**
 * Names joined as the page's language joins them: "ana and carl" ("ana e carl").
 * @param {string[]} names
 */
export function formatList(names) {
  return new Intl.ListFormat(LOCALES[lang], { type: 'conjunction' }).format(names);
}

/**
 * A number in the page's language, with `digits` decimals: "12.5" ("12,5").
 * @param {number} n
 * @param {number} [digits]
 */
export function formatNumber(n, digits = 0) {
  return new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/**
 * A duration in seconds, as people say it.
 * @param {number} seconds
 */
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return t('seconds', { n: s });
  if (s < 7200) return t('minutes', { n: Math.round(s / 60) });
  if (s < 172800) return t('hours', { n: Math.round(s / 3600) });
  return t('days', { n: Math.round(s / 86400) });
}

/**
 * A countdown: "4:59", "2 h 03 min", "3 days".
 * @param {number} seconds
 */
export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (s < 172800) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

document.documentElement.lang = lang;
