// Every user-facing string of the browser client, in English (the source language), each
// passed through t() so that it shows in the chosen language.  The names of cards, months,
// kinds, yaku, lucky hands, presets, bots and options come from catalog.js, generated from
// the Python catalog (roppyakken.text) and the gettext .po files: one source for the terminal
// and the browser.  A new or changed string here needs "python -m roppyakken.devtools.i18n".

import { NAMES } from "./catalog.js";
import { t, tc } from "./i18n.js";

/** @param {Record<string, string>} obj @returns {Record<string, string>} */
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
/** @param {string} slug */
export function presetName(slug) {
  return PRESET_NAMES[slug] || slug;
}

/** A preset's description in the page's language (the server's English text when unknown). */
/** @param {string} slug */
export function presetDescription(slug, fallback = "") {
  return PRESET_DESCRIPTIONS[slug] || fallback;
}

/** A bot level's description in the page's language (the server's English text when unknown). */
/** @param {string} level */
export function botDescription(level, fallback = "") {
  const base = String(level).split(":")[0];
  return BOT_DESCRIPTIONS[base] || fallback;
}

/** A bot level's display name (the slug when unknown; options after ":" dropped). */
/** @param {string} level */
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
/** @type {Record<string, string>} */
export const SEVEN_RIBBONS_NOTE = {
  any: t("any 7 of these"),
  exclude: t("any 7 of these, not counting the Willow ribbon"),
  require: t("7 of these, one of them the Willow ribbon"),
};

/** The words of the options' enumerated values (the identifiers stay in house-rules files). */
/** @type {Record<string, string>} */
export const OPTION_VALUES = {
  rotate: t("rotate"),
  "top-scorer": t("top-scorer"),
  dealer_takes: t("dealer_takes"),
  redeal: t("redeal"),
  play: t("play"),
  auto: t("auto"),
  choose: t("choose"),
  any: t("any"),
  "turned-up": t("turned-up"),
  all: t("all"),
  "cards-only": t("cards-only"),
  "no-willow-paulownia": t("no-willow-paulownia"),
  off: t("off"),
  difference: t("difference"),
  plain: t("plain"),
  "round-up": t("round-up"),
  "end-of-round": t("end-of-round"),
  ordered: t("ordered"),
  require: t("require"),
  exclude: t("exclude"),
  immediate: t("immediate"),
  "another-round": t("another-round"),
  "play-order": t("play-order"),
  single: t("single"),
};

/**
 * An enumerated option value in the page's language ("off" is "なし" in Japanese), a card slug
 * as the card's name, a match as words; null when it has no words.
 * @param {string} value
 * @returns {string | null}
 */
export function optionValueName(value) {
  if (Object.prototype.hasOwnProperty.call(OPTION_VALUES, value)) return OPTION_VALUES[value];
  if (CARD_NAMES[value]) return CARD_NAMES[value];
  const match = /^(first-to|rounds) (\d+)$/.exec(value);
  if (match) return match[1] === "rounds" ? t("{n} rounds", { n: match[2] }) : t("first to {n} games", { n: match[2] });
  return null;
}

/** @type {Record<string, string>} */
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
/** @type {Record<string, string[]>} */
export const BOT_PERSONAS = {
  random: [t("Momo"), t("Mugi")],
  greedy: [t("Kuma"), t("Kani")],
  expert: [t("Taka"), t("Tora")],
  learned: [t("Sora"), t("Kumo")],
  master: [t("Ryū"), t("Kame")],
};

/**
 * "{who} turns up {card} to the table.", agreeing with the gender of the card's name (deck.js
 * cardGender; in French "posé", "posée", "posés", "posées").
 * @param {string | number} who
 * @param {string | number} card
 * @param {string} gender
 * @returns {string}
 */
function turnedToTable(who, card, gender) {
  const fields = { who, card };
  if (gender === "masculine") return tc("masculine", "{who} turns up {card} to the table.", fields);
  if (gender === "feminine") return tc("feminine", "{who} turns up {card} to the table.", fields);
  if (gender === "masculine plural") return tc("masculine plural", "{who} turns up {card} to the table.", fields);
  if (gender === "feminine plural") return tc("feminine plural", "{who} turns up {card} to the table.", fields);
  return t("{who} turns up {card} to the table.", fields);
}

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
  playersN: (/** @type {string | number} */ n) => t("{n} players", { n }),
  rules: t("Rules"),
  preset: t("Preset"),
  houseRules: t("House rules (TOML)"),
  houseRulesHint: t("Start from a preset and override options, e.g. preset = \"classic\" then target = 300."),
  useHouseRules: t("Use house rules"),
  seed: t("Seed (optional)"),
  botLevel: (/** @type {number} */ seat) => t("Bot for seat {n}", { n: seat + 1 }),
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
  seatN: (/** @type {number} */ i) => t("Seat {n}", { n: i + 1 }),
  seatEmpty: t("empty — waiting for a player"),
  seatBot: (/** @type {string} */ level) => t("{level} bot", { level: botName(level) }),
  startedRoomNotice: t("This game has already started, so you are watching it as a spectator."),
  overRoomNotice: t("This game is over, so you are watching its end; its replay is on the start page."),
  botWithLevel: (/** @type {string | number} */ name, /** @type {string | number} */ level) => t("{name} ({level} bot)", { name, level }),
  botFallbackName: (/** @type {string | number} */ level) => t("{level} bot", { level }),
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
  joinTerms: t("This table's rules"),
  hintsOffNote: t("Hints are off at this table."),
  joinAs: t("Join"),
  watch: t("Watch as a spectator"),
  roomFull: t("Every seat is taken: you can watch the game."),
  spectating: t("You are watching: no hand is shown to spectators."),
  roomNotFound: t("This room does not exist."),
  connecting: t("Connecting…"),
  reconnecting: t("Connection lost — reconnecting…"),
  backHome: t("Back to the start page"),
  // table
  round: (/** @type {number} */ r) => t("Round {n}", { n: r + 1 }),
  leg: (/** @type {number} */ l) => t("game {n}", { n: l + 1 }),
  targetIs: (/** @type {string | number} */ target) => t("to {target}", { target }),
  pile: t("Pile"),
  pileCount: (/** @type {string | number} */ n) => t("{n} left", { n }),
  tableLabel: t("Table"),
  yourHand: t("Your hand"),
  handOf: (/** @type {string | number} */ name) => t("Hand of {name}", { name }),
  cardsInHand: (/** @type {string | number} */ n) => t("{n} in hand", { n }),
  turnedUp: t("Turned up"),
  captures: t("Captures"),
  noCaptures: t("no captures yet"),
  cardPoints: (/** @type {string | number} */ p) => t("{points} card points", { points: p }),
  total: t("Total"),
  totalN: (/** @type {string | number} */ total) => t("{points} points", { points: total }),
  legsN: (/** @type {string | number} */ l) => t("{n} won", { n: l }),
  dealer: t("dealer"),
  toAct: t("to play"),
  revealed: t("Shown (declared)"),
  declaredHands: t("Declared"),
  yourTurnPlay: t("Your turn: choose a card from your hand."),
  chooseTarget: t("Choose what it takes: a highlighted card on the table, or a button below."),
  playToTable: t("Add it to the table"),
  playCapture: (/** @type {string | number} */ what) => t("Take {cards}", { cards: what }),
  playAgainHint: t("Press the card again, or the button, to play it."),
  cancel: t("Cancel"),
  takeTurned: (/** @type {string | number} */ card) => t("The turned-up {card} has several targets: choose one.", { card }),
  declarePrompt: t("You hold lucky hands: declare them (this reveals their cards) or keep them hidden."),
  declareNothing: t("Declare nothing"),
  declareWhy: t(
    "Why keep one hidden? A declared hand scores its points this round, but everyone sees its cards: the others learn which months they will never take from you, and can keep back the cards you need. A hidden hand scores nothing.",
  ),
  hintDeclareTitle: t("Hint: declare or keep hidden?"),
  hintDeclareYes: (/** @type {string | number} */ cost) =>
    t(
      "The expert declares a hand when its points are worth more than what showing its cards tells the others (about {cost} points a card shown).",
      { cost },
    ),
  hintDeclareNo: (/** @type {string | number} */ hands, /** @type {string | number} */ cost) =>
    t("The expert keeps {hands} hidden: its points are worth less than showing its cards (about {cost} points a card).", {
      hands,
      cost,
    }),
  declareHands: (/** @type {string | number} */ names) => t("Declare {hands}", { hands: names }),
  redealPrompt: t("You hold four cards of a month: call a redeal?"),
  redealCall: t("Call a redeal"),
  redealNo: t("Play on"),
  waitingFor: (/** @type {string | number} */ name) => t("Waiting for {name}…", { name }),
  sendingMove: t("Sending your move…"),
  moveHeldOffline: t("The connection is lost: your move is kept and will be sent as soon as the connection is back."),
  moveResent: t("The connection is back: your move was sent again."),
  moveOutdated: t("The connection is back, but the game moved on without your move: choose again."),
  autoTaken: (/** @type {string | number} */ card, /** @type {string | number} */ taken) =>
    t("The turned-up {card} took {taken} by itself: the choice changed nothing.", { card, taken }),
  choiceGives: (/** @type {string | number} */ points) => t("+{points} card points", { points }),
  choiceYaku: (/** @type {string | number} */ yaku, /** @type {string | number} */ after, /** @type {string | number} */ needed) => t("{yaku} {after}/{needed}", { yaku, after, needed }),
  choiceNothing: t("no points"),
  luckyCards: (/** @type {string | number} */ names) => t("Cards: {names}", { names }),
  canCapture: t("can capture"),
  captureLegend: t("marks a card of your hand that can capture a card on the table."),
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
  ribbonsCount: (/** @type {string | number} */ n, /** @type {string | number} */ need) => t("{n} of {need} ribbons", { n, need }),
  log: t("What happened"),
  showRules: t("Rules help"),
  sound: t("Sound"),
  soundTitle: t("Card sounds: press to turn them on or off (remembered)"),
  close: t("Close"),
  // events
  evRoundStarted: (/** @type {number} */ r, /** @type {string | number} */ dealer) => t("Round {n}: {dealer} deals.", { n: r + 1, dealer }),
  evFirstDealer: (/** @type {string | number} */ dealer) => t("{dealer} drew the earliest month and deals first.", { dealer }),
  evRedeal: (/** @type {string | number} */ why) => t("The deal is void ({why}): dealing again.", { why }),
  evRedealTable: (/** @type {string | number} */ month) => t("four {month} cards on the table", { month }),
  evRedealHand: (/** @type {string | number} */ month, /** @type {string | number} */ who) => t("{who} holds four {month} cards", { month, who }),
  evDealerTook: (/** @type {string | number} */ who, /** @type {string | number} */ cards) => t("{who} takes four of a month from the table: {cards}.", { who, cards }),
  evDeclared: (/** @type {string | number} */ who, /** @type {string} */ hands) =>
    hands ? t("{who} declares {hands}.", { who, hands }) : t("{who} declares nothing.", { who }),
  evTurned: (/** @type {string | number} */ who, /** @type {string | number} */ card) => t("{who} turns up {card}.", { who, card }),
  evPlayedTaking: (/** @type {string | number} */ who, /** @type {string | number} */ card, /** @type {string | number} */ taken, /** @type {boolean} */ fromPile) =>
    fromPile
      ? t("{who} turns up {card}, taking {taken}.", { who, card, taken })
      : t("{who} plays {card}, taking {taken}.", { who, card, taken }),
  evPlayedToTable: (/** @type {string | number} */ who, /** @type {string | number} */ card, /** @type {boolean} */ fromPile, gender = "none") =>
    fromPile ? turnedToTable(who, card, gender) : t("{who} plays {card} to the table.", { who, card }),
  evTurnedTakes: (/** @type {string | number} */ who, /** @type {string | number} */ card, /** @type {string | number} */ taken) => t("{who} takes {taken} with the turned-up {card}.", { who, card, taken }),
  evRoundEnded: (/** @type {number} */ r) => t("Round {n} is scored.", { n: r + 1 }),
  evLegWon: (/** @type {string | number} */ who) => t("{who} wins this game of the match.", { who }),
  evGameEnded: (/** @type {string | number} */ who) => t("{who} wins!", { who }),
  // round end & game end
  roundOver: (/** @type {number} */ r) => t("Round {n} — scores", { n: r + 1 }),
  roundOverNote: (/** @type {number} */ r) => t("Round {n} is over: its scores are shown.", { n: r + 1 }),
  breakdownCards: t("Cards"),
  breakdownYaku: t("Yaku"),
  breakdownLucky: t("Lucky hands"),
  roundScore: t("Round score"),
  counted: (/** @type {string | number} */ n) => t("counted for fuke: {n}", { n }),
  adds: t("Adds"),
  totalAfter: t("Total"),
  fukeVoid: t("Fuke: a counted score is too low, so every round score is void."),
  instantWin: (/** @type {string | number} */ who, /** @type {string | number} */ yaku) => t("Instant win: {who} with {yaku}.", { who, yaku }),
  differenceTop: (/** @type {string} */ who, /** @type {number} */ top, /** @type {number} */ second) =>
    t("Yukbaek scoring: only the top scorer scores, the difference to the next best. {who} adds {top} − {second} = {difference}; the others add 0.", { who, top, second, difference: top - second }),
  differenceTie: (/** @type {string} */ who, /** @type {number} */ top) =>
    t("Yukbaek scoring: only the top scorer scores, the difference to the next best, and a tie at the top scores nothing. {who} tie with {top}, so nobody adds anything this round.", { who, top }),
  roundUp: t("Sambong scoring: each round score is rounded up to the next hundred."),
  continue: t("Continue"),
  hintButton: t("Hint"),
  hintTitle: t("Hint: what the expert would play"),
  hintWorking: t("Working out a hint…"),
  hintsOn: t("Hints on"),
  hintsOnTitle: t("Every player at this table may ask for hints."),
  hintRoomOption: t("Allow hints for every player"),
  hintExpertChoice: t("the expert's choice"),
  hintPlayTo: (/** @type {string | number} */ card) => t("{card} to the table", { card }),
  hintPlayTakes: (/** @type {string | number} */ card, /** @type {string | number} */ cards) => t("{card} takes {cards}", { card, cards }),
  hintPointsNow: (/** @type {string | number} */ n) => t("Points now: {n}", { n }),
  hintYakuNow: (/** @type {string | number} */ names) => t("Completes now: {yaku}", { yaku: names }),
  hintExpected: (/** @type {string | number} */ score, /** @type {string | number} */ ci) => t("Expected round points: {score} (± {ci})", { score, ci }),
  hintYakuChance: (/** @type {string | number} */ name, /** @type {string | number} */ pct) => t("Chance of {yaku}: {pct}%", { yaku: name, pct }),
  hintRisk: (/** @type {string | number} */ n) => t("Risk: the opponents expect {n} points", { n }),
  hintWinChance: (/** @type {string | number} */ pct) => t("Chance to win the game: {pct}%", { pct }),
  hintNote: (/** @type {string | number} */ n) =>
    t(
      "Each play was played out in {n} imagined deals from what you can see. The expert's choice comes first: it is the expert's judgement of the position. These chances come from those few imagined deals, so another play may show a higher chance by luck of the deals.",
      { n },
    ),
  hintPlayThis: t("Play this"),
  reviewTitle: t("What the master would have played"),
  reviewWorking: t("The master is looking at your round…"),
  reviewNone: t("The master would have played as you did."),
  reviewTurn: (/** @type {string | number} */ n) => t("Your turn {n}", { n }),
  reviewPlayed: (/** @type {string | number} */ what) => t("You: {play}", { play: what }),
  reviewBest: (/** @type {string | number} */ what) => t("Master: {play}", { play: what }),
  reviewLost: (/** @type {string | number} */ points, /** @type {number} */ pct) =>
    pct >= 1
      ? t("{points} points given up (chance to win −{pct}%)", { points, pct })
      : t("{points} points given up (chance to win down by less than 1%)", { points }),
  labelled: (/** @type {string | number} */ label, /** @type {string | number} */ value) => t("{label}: {value}", { label, value }),
  gameOver: t("Game over"),
  wins: (/** @type {string | number} */ who, /** @type {string | number} */ why) => t("{who} wins — {why}.", { who, why }),
  youWin: t("You win!"),
  standings: t("Final standings"),
  standingsPlace: t("Place"),
  standingsPlayer: t("Player"),
  standingsTotal: t("Total"),
  standingsLegs: t("Games won"),
  downloadRecord: t("Download the game record"),
  newGame: t("New game"),
  instantReason: (/** @type {string | number} */ yaku) => t("instant win with {yaku}", { yaku }),
  targetReason: (/** @type {string | number} */ yaku) => t("reached the target, with {yaku} this round", { yaku }),
  // calculator
  calcTitle: t("Score calculator"),
  calcIntro: t(
    "For games with physical cards: pick the player, tap the cards they captured (in capture order if rain-off counts it), tick declared lucky hands, then score the round.",
  ),
  calcPlayer: (/** @type {number} */ i) => t("Player {n}", { n: i + 1 }),
  calcCapturing: t("Tap cards for"),
  calcLucky: t("Declared lucky hands"),
  calcScore: t("Score the round"),
  calcClear: t("Clear all"),
  calcCount: (/** @type {string | number} */ n, /** @type {string | number} */ p) => t("{n} cards, {points} points", { n, points: p }),
  calcOwner: (/** @type {number} */ i) => t("P{n}", { n: i + 1 }),
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
  replayStep: (/** @type {string | number} */ i, /** @type {string | number} */ n) => t("step {i} of {n}", { i, n }),
  replayDeal: t("The deal"),
  replayScores: t("Round scores"),
  replayWinner: (/** @type {string | number} */ who) => t("Winner: {who}", { who }),
  replayUnfinished: t("This game was not finished."),
  // rules help
  rulesTitle: (/** @type {string} */ preset) => t("Rules: {preset}", { preset: presetName(preset) }),
  rulesHowTo: t("How to play"),
  rulesYaku: t("Yaku"),
  rulesLuckyHands: t("Lucky hands"),
  rulesOptions: t("Every option"),
  rulesNoLucky: t("No lucky hands under these rules."),
  rulesCardValues: t("Card values"),
  points: (/** @type {string | number} */ p) => t("{points} points", { points: p }),
  pts: (/** @type {string | number} */ p) => `${p}`,
  yes: t("yes"),
  no: t("no"),
  none: t("none"),
};

export default T;

/** The display name of a yaku or lucky-hand slug. */
/** @param {string} slug @returns {string} */
export function yakuName(slug) {
  return YAKU_NAMES[slug] || LUCKY_HAND_NAMES[slug] || slug;
}

/** The level of a bot's player name ("bot:master" -> "master"), or null for a person. */
/** @param {string | null | undefined} name @returns {string | null} */
export function botLevel(name) {
  const found = /^bot:([\w-]+)/.exec(name || "");
  return found ? found[1] : null;
}

/**
 * The display name of each player: a bot ("bot:<level>") gets a proper name (BOT_PERSONAS; a
 * second bot of the same level the second name), and with withLevel its level too.
 * @param {(string | null)[]} names  (null: an empty seat)
 * @param {{withLevel?: boolean}} [options]
 * @returns {string[]}
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
/** @param {string[]} names @returns {string[]} */
export function distinctNames(names) {
  const shown = playerNames(names);
  return shown.map((name, seat) =>
    shown.filter((x) => x === name).length > 1 ? `${name} (${T.seatN(seat)})` : name,
  );
}

/** A readable reason for the end of a game (the engine's end_reason strings). */
/** @param {string | null | undefined} reason @returns {string} */
export function reasonText(reason) {
  if (!reason) return "";
  if (REASONS[reason]) return REASONS[reason];
  const [head, slug] = reason.split(":");
  if (head === "instant" && slug) return T.instantReason(yakuName(slug));
  if (head === "target" && slug) return T.targetReason(yakuName(slug));
  return reason;
}
