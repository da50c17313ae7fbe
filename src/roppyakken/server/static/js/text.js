// Every user-facing string of the browser client, in English (the source language), each
// passed through t() so that it shows in the chosen language.  The names of cards, months,
// kinds, yaku, lucky hands, presets, bots and options come from catalog.js, generated from
// the Python catalog (roppyakken.text) and the gettext .po files: one source for the terminal
// and the browser.  A new or changed string here needs "python -m roppyakken.devtools.i18n".

import { NAMES } from "./catalog.js";
import { LANG, t } from "./i18n.js";

const mapValues = (obj) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, t(v)]));

export const MONTH_NAMES = NAMES.months.map((m) => t(m));
export const KIND_NAMES = mapValues(NAMES.kinds);
export const KIND_PLURALS = mapValues(NAMES.kindPlurals);
export const CARD_NAMES = mapValues(NAMES.cards);
export const YAKU_NAMES = mapValues(NAMES.yaku);
export const LUCKY_HAND_NAMES = mapValues(NAMES.luckyHands);
export const LUCKY_HAND_RULES = mapValues(NAMES.luckyConditions);
export const OPTION_DESCRIPTIONS = mapValues(NAMES.options);
export const PRESET_NAMES = mapValues(NAMES.presets);
export const PRESET_DESCRIPTIONS = mapValues(NAMES.presetDescriptions);
export const BOT_NAMES = mapValues(NAMES.bots);
export const BOT_DESCRIPTIONS = mapValues(NAMES.botDescriptions);

/** A preset's display name (the slug when unknown). */
export function presetName(slug) {
  return PRESET_NAMES[slug] || slug;
}

/** A preset's description in the page's language (the server's English text when unknown). */
export function presetDescription(slug, fallback = "") {
  return PRESET_DESCRIPTIONS[slug] || fallback;
}

/** A bot level's description in the page's language (the server's English text when unknown). */
export function botDescription(level, fallback = "") {
  const base = String(level).split(":")[0];
  return BOT_DESCRIPTIONS[base] || fallback;
}

/** A bot level's display name (the slug when unknown; options after ":" dropped). */
export function botName(level) {
  const base = String(level).split(":")[0];
  return BOT_NAMES[base] || base;
}

export const RULES_SUMMARY = [
  t("Each turn: play a card from your hand, then turn up the top card of the pile and play it the same way."),
  t("A card captures a table card of its month; with no card of its month on the table it is added to the table. A card that can capture must capture."),
  t("Three cards of a month on the table are a stack: only the fourth card of that month takes them, all at once."),
  t("The joker (the Rain Man unless the rules say otherwise) may also take any Willow card or any single card worth more than 0 points."),
  t("At the end of the round each player scores the points of their captured cards, their yaku and their declared lucky hands."),
  t("Card values: brights and the Plum warbler 50, other animals and ribbons 10, the yellow Paulownia chaff 10, other chaff 0."),
];

/** What Seven Ribbons needs of the ribbons shown, by the seven_ribbons_willow option. */
export const SEVEN_RIBBONS_NOTE = {
  any: t("any 7 of these"),
  exclude: t("any 7 of these, not counting the Willow ribbon"),
  require: t("7 of these, one of them the Willow ribbon"),
};

export const REASONS = {
  target: t("reached the target"),
  legs: t("won the match"),
  "tie:play-order": t("won the tie in play order"),
  "most-legs": t("won the most games"),
  "most-legs:total": t("won the most games (tie broken by total)"),
  "most-legs:play-order": t("won the most games (tie broken by play order)"),
  abandoned: t("abandoned: nobody came back"),
};

// Bots' display names, by level: the first for the first bot of that level in a game, the
// second for another (the server names a bot seat "bot:<level>"; its level shows as a badge).
export const BOT_PERSONAS = {
  random: [t("Momo"), t("Mugi")],
  greedy: [t("Kuma"), t("Kani")],
  expert: [t("Taka"), t("Tora")],
  learned: [t("Sora"), t("Kumo")],
  master: [t("Ryū"), t("Kame")],
};

const T = {
  appName: "Roppyakken",
  tagline: t("六百間 — the hanafuda game for 2 or 3 players"),
  navHome: t("Play"),
  navCalc: t("Score calculator"),
  navReplay: t("Replays"),
  navRules: t("Rules"),
  yourName: t("Your name"),
  defaultName: t("Player"),
  players: t("Players"),
  playersN: (n) => t("{n} players", { n }),
  rules: t("Rules"),
  preset: t("Preset"),
  houseRules: t("House rules (TOML)"),
  houseRulesHint: t("Start from a preset and override options, e.g. preset = \"classic\" then target = 300."),
  useHouseRules: t("Use house rules"),
  seed: t("Seed (optional)"),
  botLevel: (seat) => t("Bot for seat {n}", { n: seat + 1 }),
  playBots: t("Play against bots"),
  playBotsIntro: t("Pick the players, the rules and the bots: the game starts at once."),
  startGame: t("Start the game"),
  playOnline: t("Play online with friends"),
  playOnlineIntro: t("Create a room, share its invite link; empty seats can be filled by bots."),
  createRoom: t("Create a room"),
  finishedGames: t("Finished games"),
  noFinishedGames: t("No finished games yet."),
  watchReplay: t("Watch the replay"),
  download: t("Download"),
  loading: t("Loading…"),
  working: t("Working…"),
  errorPrefix: t("Error: "),
  // room
  room: t("Room"),
  inviteLink: t("Invite link"),
  inviteHint: t("Send this link to your friends: they join by opening it."),
  copy: t("Copy"),
  copied: t("Copied"),
  seats: t("Seats"),
  seatN: (i) => t("Seat {n}", { n: i + 1 }),
  seatEmpty: t("empty — waiting for a player"),
  seatBot: (level) => t("{level} bot", { level: botName(level) }),
  startedRoomNotice: t("This game has already started, so you are watching it as a spectator."),
  overRoomNotice: t("This game is over, so you are watching its end; its replay is on the start page."),
  botWithLevel: (name, level) => t("{name} ({level} bot)", { name, level }),
  botFallbackName: (level) => t("{level} bot", { level }),
  seatHuman: t("player"),
  connected: t("online"),
  disconnected: t("offline"),
  you: t("you"),
  host: t("host"),
  fillBot: t("Fill with a bot"),
  emptySeat: t("Free the seat"),
  start: t("Start the game"),
  startHint: t("Every seat must hold a player or a bot."),
  waitingHost: t("Waiting for the host to start the game…"),
  joinRoom: t("Join this game"),
  joinAs: t("Join"),
  watch: t("Watch as a spectator"),
  roomFull: t("Every seat is taken: you can watch the game."),
  spectating: t("You are watching: no hand is shown to spectators."),
  roomNotFound: t("This room does not exist."),
  connecting: t("Connecting…"),
  reconnecting: t("Connection lost — reconnecting…"),
  backHome: t("Back to the start page"),
  // table
  round: (r) => t("Round {n}", { n: r + 1 }),
  leg: (l) => t("game {n}", { n: l + 1 }),
  targetIs: (target) => t("to {target}", { target }),
  pile: t("Pile"),
  pileCount: (n) => t("{n} left", { n }),
  tableLabel: t("Table"),
  yourHand: t("Your hand"),
  handOf: (name) => t("Hand of {name}", { name }),
  cardsInHand: (n) => t("{n} in hand", { n }),
  turnedUp: t("Turned up"),
  captures: t("Captures"),
  noCaptures: t("no captures yet"),
  cardPoints: (p) => t("{points} card points", { points: p }),
  total: t("Total"),
  totalN: (total) => t("{points} points", { points: total }),
  legsN: (l) => t("{n} won", { n: l }),
  dealer: t("dealer"),
  toAct: t("to play"),
  revealed: t("Shown (declared)"),
  declaredHands: t("Declared"),
  yourTurnPlay: t("Your turn: choose a card from your hand."),
  chooseTarget: t("Choose what it takes: a highlighted card on the table, or a button below."),
  playToTable: t("Add it to the table"),
  playCapture: (what) => t("Take {cards}", { cards: what }),
  playAgainHint: t("Press the card again, or the button, to play it."),
  cancel: t("Cancel"),
  takeTurned: (card) => t("The turned-up {card} has several targets: choose one.", { card }),
  declarePrompt: t("You hold lucky hands: declare them (this reveals their cards) or keep them hidden."),
  declareNothing: t("Declare nothing"),
  declareHands: (names) => t("Declare {hands}", { hands: names }),
  redealPrompt: t("You hold four cards of a month: call a redeal?"),
  redealCall: t("Call a redeal"),
  redealNo: t("Play on"),
  waitingFor: (name) => t("Waiting for {name}…", { name }),
  sendingMove: t("Sending your move…"),
  moveHeldOffline: t("The connection is lost: your move is kept and will be sent as soon as the connection is back."),
  moveResent: t("The connection is back: your move was sent again."),
  moveOutdated: t("The connection is back, but the game moved on without your move: choose again."),
  autoTaken: (card, taken) =>
    t("The turned-up {card} took {taken} by itself: the choice changed nothing.", { card, taken }),
  choiceGives: (points) => t("+{points} card points", { points }),
  choiceYaku: (yaku, after, needed) => t("{yaku} {after}/{needed}", { yaku, after, needed }),
  choiceNothing: t("no points"),
  luckyCards: (names) => t("Cards: {names}", { names }),
  canCapture: t("can capture"),
  wild: t("wild target"),
  // panels
  progress: t("Yaku progress"),
  progressHeld: t("held"),
  progressMissing: t("missing"),
  progressGone: t("taken by someone else"),
  progressDone: t("complete"),
  progressImpossible: t("impossible"),
  progressNotStarted: t("not started"),
  progressUnderway: t("under way"),
  progressNone: t("No yaku under way yet."),
  ribbonsCount: (n, need) => t("{n} of {need} ribbons", { n, need }),
  log: t("What happened"),
  showRules: t("Rules help"),
  close: t("Close"),
  // events
  evRoundStarted: (r, dealer) => t("Round {n}: {dealer} deals.", { n: r + 1, dealer }),
  evFirstDealer: (dealer) => t("{dealer} drew the earliest month and deals first.", { dealer }),
  evRedeal: (why) => t("The deal is void ({why}): dealing again.", { why }),
  evRedealTable: (month) => t("four {month} cards on the table", { month }),
  evRedealHand: (month, who) => t("{who} holds four {month} cards", { month, who }),
  evDealerTook: (who, cards) => t("{who} takes four of a month from the table: {cards}.", { who, cards }),
  evDeclared: (who, hands) =>
    hands ? t("{who} declares {hands}.", { who, hands }) : t("{who} declares nothing.", { who }),
  evTurned: (who, card) => t("{who} turns up {card}.", { who, card }),
  evPlayedTaking: (who, card, taken, fromPile) =>
    fromPile
      ? t("{who} turns up {card}, taking {taken}.", { who, card, taken })
      : t("{who} plays {card}, taking {taken}.", { who, card, taken }),
  evPlayedToTable: (who, card, fromPile) =>
    fromPile
      ? t("{who} turns up {card} to the table.", { who, card })
      : t("{who} plays {card} to the table.", { who, card }),
  evTurnedTakes: (who, card, taken) => t("{who} takes {taken} with the turned-up {card}.", { who, card, taken }),
  evRoundEnded: (r) => t("Round {n} is scored.", { n: r + 1 }),
  evLegWon: (who) => t("{who} wins this game of the match.", { who }),
  evGameEnded: (who) => t("{who} wins!", { who }),
  // round end & game end
  roundOver: (r) => t("Round {n} — scores", { n: r + 1 }),
  breakdownCards: t("Cards"),
  breakdownYaku: t("Yaku"),
  breakdownLucky: t("Lucky hands"),
  roundScore: t("Round score"),
  counted: (n) => t("counted for fuke: {n}", { n }),
  adds: t("Adds"),
  totalAfter: t("Total"),
  fukeVoid: t("Fuke: a counted score is too low, so every round score is void."),
  instantWin: (who, yaku) => t("Instant win: {who} with {yaku}.", { who, yaku }),
  continue: t("Continue"),
  hintButton: t("Hint"),
  hintTitle: t("Hint: what the expert would play"),
  hintWorking: t("Working out a hint…"),
  hintsOn: t("Hints on"),
  hintsOnTitle: t("Every player at this table may ask for hints."),
  hintRoomOption: t("Allow hints for every player"),
  hintExpertChoice: t("the expert's choice"),
  hintPlayTo: (card) => t("{card} to the table", { card }),
  hintPlayTakes: (card, cards) => t("{card} takes {cards}", { card, cards }),
  hintPointsNow: (n) => t("Points now: {n}", { n }),
  hintYakuNow: (names) => t("Completes now: {yaku}", { yaku: names }),
  hintExpected: (score, ci) => t("Expected round points: {score} (± {ci})", { score, ci }),
  hintYakuChance: (name, pct) => t("Chance of {yaku}: {pct}%", { yaku: name, pct }),
  hintRisk: (n) => t("Risk: the opponents expect {n} points", { n }),
  hintWinChance: (pct) => t("Chance to win the game: {pct}%", { pct }),
  hintWorlds: (n) => t("Each play was played out in {n} imagined deals from what you can see.", { n }),
  hintPlayThis: t("Play this"),
  reviewTitle: t("What the master would have played"),
  reviewWorking: t("The master is looking at your round…"),
  reviewNone: t("The master would have played as you did."),
  reviewTurn: (n) => t("Your turn {n}", { n }),
  reviewPlayed: (what) => t("You: {play}", { play: what }),
  reviewBest: (what) => t("Master: {play}", { play: what }),
  reviewLost: (points, pct) =>
    t("{points} points given up (chance to win −{pct}%)", { points, pct }),
  gameOver: t("Game over"),
  wins: (who, why) => t("{who} wins — {why}.", { who, why }),
  youWin: t("You win!"),
  downloadRecord: t("Download the game record"),
  newGame: t("New game"),
  instantReason: (yaku) => t("instant win with {yaku}", { yaku }),
  targetReason: (yaku) => t("reached the target, with {yaku} this round", { yaku }),
  // calculator
  calcTitle: t("Score calculator"),
  calcIntro: t(
    "For games with physical cards: pick the player, tap the cards they captured (in capture order if rain-off counts it), tick declared lucky hands, then score the round.",
  ),
  calcPlayer: (i) => t("Player {n}", { n: i + 1 }),
  calcCapturing: t("Tap cards for"),
  calcLucky: t("Declared lucky hands"),
  calcScore: t("Score the round"),
  calcClear: t("Clear all"),
  calcCount: (n, p) => t("{n} cards, {points} points", { n, points: p }),
  calcOwner: (i) => t("P{n}", { n: i + 1 }),
  // replay
  replayTitle: t("Replay viewer"),
  replayIntro: t("Open a game record (a .json file) or pick a finished game, then step through it."),
  replayOpen: t("Open a record file"),
  replayBadFile: t("This file is not a roppyakken-record/1 game record."),
  replayStart: t("First step"),
  replayPrevRound: t("Previous round"),
  replayBack: t("Step back"),
  replayForward: t("Step forward"),
  replayNextRound: t("Next round"),
  replayEnd: t("Last step"),
  replayPlay: t("Auto-play"),
  replayPause: t("Pause"),
  replayStep: (i, n) => t("step {i} of {n}", { i, n }),
  replayDeal: t("The deal"),
  replayScores: t("Round scores"),
  replayWinner: (who) => t("Winner: {who}", { who }),
  replayUnfinished: t("This game was not finished."),
  // rules help
  rulesTitle: (preset) => t("Rules: {preset}", { preset: presetName(preset) }),
  rulesHowTo: t("How to play"),
  rulesYaku: t("Yaku"),
  rulesLuckyHands: t("Lucky hands"),
  rulesOptions: t("Every option"),
  rulesNoLucky: t("No lucky hands under these rules."),
  rulesCardValues: t("Card values"),
  points: (p) => t("{points} points", { points: p }),
  pts: (p) => `${p}`,
  yes: t("yes"),
  no: t("no"),
  none: t("none"),
};

export default T;

/** The display name of a yaku or lucky-hand slug. */
export function yakuName(slug) {
  return YAKU_NAMES[slug] || LUCKY_HAND_NAMES[slug] || slug;
}

/** The level of a bot's player name ("bot:master" -> "master"), or null for a person. */
export function botLevel(name) {
  const found = /^bot:([\w-]+)/.exec(name || "");
  return found ? found[1] : null;
}

/**
 * The display name of each player: a bot ("bot:<level>") gets a proper name (BOT_PERSONAS; a
 * second bot of the same level the second name), and with withLevel its level too.
 */
export function playerNames(names, { withLevel = false } = {}) {
  const levels = names.map(botLevel);
  return names.map((n, seat) => {
    const level = levels[seat];
    if (!level) return n || T.seatN(seat);
    const same = levels.slice(0, seat).filter((l) => l === level).length;
    const list = BOT_PERSONAS[level];
    const name = list ? list[same % list.length] : T.botFallbackName(level);
    return withLevel ? T.botWithLevel(name, botName(level)) : name;
  });
}

/** Player names made distinct for display: bots named (playerNames), a repeated name gets its seat. */
export function distinctNames(names) {
  const shown = playerNames(names);
  return shown.map((name, seat) =>
    shown.filter((x) => x === name).length > 1 ? `${name} (${T.seatN(seat)})` : name,
  );
}

/** A readable reason for the end of a game (the engine's end_reason strings). */
export function reasonText(reason) {
  if (!reason) return "";
  if (REASONS[reason]) return REASONS[reason];
  const [head, slug] = reason.split(":");
  if (head === "instant" && slug) return T.instantReason(yakuName(slug));
  if (head === "target" && slug) return T.targetReason(yakuName(slug));
  return reason;
}
