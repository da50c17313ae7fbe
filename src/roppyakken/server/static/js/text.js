// Every user-facing English string of the browser client, in one place so that
// translations can follow (a translation replaces this module's values; slugs never change).

export const MONTH_NAMES = [
  "Pine",
  "Plum",
  "Cherry",
  "Wisteria",
  "Iris",
  "Peony",
  "Bush clover",
  "Pampas",
  "Chrysanthemum",
  "Maple",
  "Willow",
  "Paulownia",
];

export const KIND_NAMES = { bright: "bright", animal: "animal", ribbon: "ribbon", chaff: "chaff" };
export const KIND_PLURALS = { bright: "Brights", animal: "Animals", ribbon: "Ribbons", chaff: "Chaff" };

// What each special card shows (the part of the slug after the month), for card names.
export const SUBJECT_NAMES = {
  crane: "crane",
  warbler: "bush warbler",
  curtain: "curtain",
  cuckoo: "cuckoo",
  bridge: "bridge",
  butterflies: "butterflies",
  boar: "boar",
  moon: "moon",
  geese: "geese",
  sake: "sake cup",
  deer: "deer",
  rainman: "Rain Man",
  swallow: "swallow",
  lightning: "lightning",
  phoenix: "phoenix",
  yellow: "yellow chaff",
  ribbon: "ribbon",
  "chaff-1": "chaff 1",
  "chaff-2": "chaff 2",
};

export const YAKU_NAMES = {
  "four-brights": "Four Brights (Shikō)",
  "matsu-kiri-bozu": "Crane, Moon, Phoenix (Matsu-Kiri-Bōzu)",
  "great-three": "Great Three (Ōzan)",
  "seven-ribbons": "Seven Ribbons (Nanatan)",
  "red-poems": "Red Poems (Akatan)",
  "blue-ribbons": "Blue Ribbons (Aotan)",
  "grass-ribbons": "Grass Ribbons (Kusatan)",
  "boar-deer-butterflies": "Boar, Deer, Butterflies (Inoshikachō)",
  cannon: "Cannon (Teppō)",
  "flower-viewing": "Flower Viewing (Hanami)",
  "moon-viewing": "Moon Viewing (Tsukimi)",
  "four-willow": "Four Rain (Ameshima)",
  "four-pine": "Four Pine",
  "four-plum": "Four Plum",
  "four-cherry": "Four Cherry",
  "four-wisteria": "Four Wisteria",
  "four-pampas": "Four Pampas",
  "four-maple": "Four Maple",
  "four-paulownia": "Four Paulownia",
  "ribbon-boar-deer-butterflies": "Ribbon Boar, Deer, Butterflies",
  "ribbon-cannon": "Ribbon Cannon",
  "ribbon-flower-viewing": "Ribbon Flower Viewing",
  "ribbon-moon-viewing": "Ribbon Moon Viewing",
};

export const LUCKY_HAND_NAMES = {
  "all-chaff": "All Chaff (Sōgasu)",
  "hand-three": "Hand Three (Tesan)",
  "double-hand-three": "Double Hand Three (Futatesan)",
  "triple-hand-three": "Triple Hand Three",
  "hand-four": "Hand Four",
  "iris-hand-three": "Iris Hand Three",
  "iris-hand-four": "Iris Hand Four",
};

export const LUCKY_HAND_RULES = {
  "all-chaff": "every card in hand is worth 0 points",
  "hand-three": "three cards of one month in hand",
  "double-hand-three": "two months with three cards each",
  "triple-hand-three": "three months with three cards each",
  "hand-four": "four cards of one month in hand",
  "iris-hand-three": "three Iris cards in hand",
  "iris-hand-four": "all four Iris cards in hand",
};

export const OPTION_DESCRIPTIONS = {
  players: "numbers of players this rule set allows",
  next_dealer: "who deals the next round: top-scorer or rotate (R-2.3)",
  ten_card_deal: "two players get ten cards each and the pile ends empty (R-3.1)",
  table_four: "four of a month on the table: redeal or dealer_takes (R-3.3)",
  hand_four: "four of a month in a hand: redeal, optional or play (R-3.4)",
  lucky_hands: "lucky hands that score, with their values (R-4.1)",
  declare: "lucky hands are declared by choice or automatically (R-4.1)",
  joker: "the joker card: willow-rainman, willow-lightning or none (R-6.1)",
  joker_wild_on_table: "which cards may take a joker lying on the table: any, turned-up or off (R-6.4)",
  auto_capture_higher: "with two targets of a month, the higher is taken without asking (R-5.3)",
  fuke: "draw round: off, all, no-willow-paulownia or cards-only (R-7.3)",
  fuke_threshold: "a counted round score at or below this voids the round (R-7.3)",
  fuke_exempt: "yaku whose completion spares the round from fuke (R-7.5)",
  round_scoring: "what a round adds to totals: plain, difference or round-up (R-7.4)",
  yaku: "yaku that score, with their values (R-8.2)",
  viewing_exclusive: "Cannon replaces Flower and Moon viewing (R-8.1)",
  rain_off: "a Willow capture voids viewing yaku: off, end-of-round or ordered (R-8.3)",
  seven_ribbons_willow: "the Willow ribbon in Seven Ribbons: any, exclude or require (R-8.4)",
  four_brights_needs_warbler: "the Plum Warbler is a fifth card of Four Brights (R-8.4)",
  seven_ribbons_extra: "points for each ribbon beyond seven (R-8.4)",
  instant_win: "Four Brights / Seven Ribbons win the game: end-of-round, immediate or off (R-8.5)",
  target: "total that ends the game (R-9.1)",
  top_tie: "a tie for the top total: another-round or play-order (R-9.1)",
  win_margin: "the winner must lead the second by at least this (R-9.2)",
  match: "single, 'first-to K' legs, or 'rounds N' (R-9.3)",
};

export const RULES_SUMMARY = [
  "Each turn: play a card from your hand, then turn up the top card of the pile and play it the same way.",
  "A card captures a table card of its month; with no card of its month on the table it is added to the table. A card that can capture must capture.",
  "Three cards of a month on the table are a stack: only the fourth card of that month takes them, all at once.",
  "The joker (the Rain Man unless the rules say otherwise) may also take any Willow card or any single card worth more than 0 points.",
  "At the end of the round each player scores the points of their captured cards, their yaku and their declared lucky hands.",
  "Card values: brights and the Plum warbler 50, other animals and ribbons 10, the yellow Paulownia chaff 10, other chaff 0.",
];

export const REASONS = {
  target: "reached the target",
  legs: "won the match",
  "tie:play-order": "won the tie in play order",
  "most-legs": "won the most games",
  "most-legs:total": "won the most games (tie broken by total)",
  "most-legs:play-order": "won the most games (tie broken by play order)",
};

// Bots' display names, by level: the first for the first bot of that level in a game, the
// second for another (the server names a bot seat "bot:<level>"; its level shows as a badge).
export const BOT_NAMES = {
  random: ["Momo", "Mugi"],
  greedy: ["Kuma", "Kani"],
  expert: ["Taka", "Tora"],
  master: ["Ryū", "Kame"],
};

export const BOT_LEVEL_NAMES = { random: "random", greedy: "greedy", expert: "expert", master: "master" };

const T = {
  appName: "Roppyakken",
  tagline: "六百間 — the hanafuda game for 2 or 3 players",
  navHome: "Play",
  navCalc: "Score calculator",
  navReplay: "Replays",
  navRules: "Rules",
  yourName: "Your name",
  defaultName: "Player",
  players: "Players",
  playersN: (n) => `${n} players`,
  rules: "Rules",
  preset: "Preset",
  houseRules: "House rules (TOML)",
  houseRulesHint: 'Start from a preset and override options, e.g. preset = "classic" then target = 300.',
  useHouseRules: "Use house rules",
  seed: "Seed (optional)",
  botLevel: (seat) => `Bot for seat ${seat + 1}`,
  playBots: "Play against bots",
  playBotsIntro: "Pick the players, the rules and the bots: the game starts at once.",
  startGame: "Start the game",
  playOnline: "Play online with friends",
  playOnlineIntro: "Create a room, share its invite link; empty seats can be filled by bots.",
  createRoom: "Create a room",
  finishedGames: "Finished games",
  noFinishedGames: "No finished games yet.",
  watchReplay: "Watch the replay",
  download: "Download",
  loading: "Loading…",
  working: "Working…",
  errorPrefix: "Error: ",
  // room
  room: "Room",
  inviteLink: "Invite link",
  inviteHint: "Send this link to your friends: they join by opening it.",
  copy: "Copy",
  copied: "Copied",
  seats: "Seats",
  seatN: (i) => `Seat ${i + 1}`,
  seatEmpty: "empty — waiting for a player",
  seatBot: (level) => `${level} bot`,
  botWithLevel: (name, level) => `${name} (${level} bot)`,
  botFallbackName: (level) => `${level} bot`,
  startedRoomNotice: "This game has already started, so you are watching it as a spectator.",
  overRoomNotice: "This game is over, so you are watching its end; its replay is on the start page.",
  seatHuman: "player",
  connected: "online",
  disconnected: "offline",
  you: "you",
  host: "host",
  fillBot: "Fill with a bot",
  emptySeat: "Free the seat",
  start: "Start the game",
  startHint: "Every seat must hold a player or a bot.",
  waitingHost: "Waiting for the host to start the game…",
  joinRoom: "Join this game",
  joinAs: "Join",
  watch: "Watch as a spectator",
  roomFull: "Every seat is taken: you can watch the game.",
  spectating: "You are watching: no hand is shown to spectators.",
  roomNotFound: "This room does not exist.",
  connecting: "Connecting…",
  reconnecting: "Connection lost — reconnecting…",
  backHome: "Back to the start page",
  // table
  round: (r) => `Round ${r + 1}`,
  leg: (l) => `game ${l + 1}`,
  targetIs: (t) => `to ${t}`,
  pile: "Pile",
  pileCount: (n) => `${n} left`,
  tableLabel: "Table",
  yourHand: "Your hand",
  handOf: (name) => `Hand of ${name}`,
  cardsInHand: (n) => `${n} in hand`,
  turnedUp: "Turned up",
  captures: "Captures",
  noCaptures: "no captures yet",
  cardPoints: (p) => `${p} card points`,
  total: "Total",
  totalN: (t) => `${t} points`,
  legsN: (l) => `${l} won`,
  dealer: "dealer",
  toAct: "to play",
  revealed: "Shown (declared)",
  declaredHands: "Declared",
  yourTurnPlay: "Your turn: choose a card from your hand.",
  chooseTarget: "Choose what it takes: a highlighted card on the table, or a button below.",
  playToTable: "Add it to the table",
  playCapture: (what) => `Take ${what}`,
  playAgainHint: "Press the card again, or the button, to play it.",
  cancel: "Cancel",
  takeTurned: (card) => `The turned-up ${card} has several targets: choose one.`,
  declarePrompt: "You hold lucky hands: declare them (this reveals their cards) or keep them hidden.",
  declareNothing: "Declare nothing",
  declareHands: (names) => `Declare ${names}`,
  redealPrompt: "You hold four cards of a month: call a redeal?",
  redealCall: "Call a redeal",
  redealNo: "Play on",
  waitingFor: (name) => `Waiting for ${name}…`,
  sendingMove: "Sending your move…",
  moveHeldOffline: "The connection is lost: your move is kept and will be sent as soon as the connection is back.",
  moveResent: "The connection is back: your move was sent again.",
  moveOutdated: "The connection is back, but the game moved on without your move: choose again.",
  autoTaken: (card, taken) => `The turned-up ${card} took ${taken} by itself: the choice changed nothing.`,
  choiceGives: (points) => `+${points} card points`,
  choiceYaku: (yaku, after, needed) => `${yaku} ${after}/${needed}`,
  choiceNothing: "no points",
  luckyCards: (names) => `Cards: ${names}`,
  canCapture: "can capture",
  wild: "wild target",
  // panels
  progress: "Yaku progress",
  progressHeld: "held",
  progressMissing: "missing",
  progressGone: "taken by someone else",
  progressDone: "complete",
  progressImpossible: "impossible",
  progressNotStarted: "not started",
  progressUnderway: "under way",
  progressNone: "No yaku under way yet.",
  ribbonsCount: (n, need) => `${n} of ${need} ribbons`,
  log: "What happened",
  showRules: "Rules help",
  close: "Close",
  // events
  evRoundStarted: (r, dealer) => `Round ${r + 1}: ${dealer} deals.`,
  evFirstDealer: (dealer) => `${dealer} drew the earliest month and deals first.`,
  evRedeal: (why) => `The deal is void (${why}): dealing again.`,
  evRedealTable: (month) => `four ${month} cards on the table`,
  evRedealHand: (month, who) => `${who} holds four ${month} cards`,
  evDealerTook: (who, cards) => `${who} takes four of a month from the table: ${cards}.`,
  evDeclared: (who, hands) => (hands ? `${who} declares ${hands}.` : `${who} declares nothing.`),
  evTurned: (who, card) => `${who} turns up ${card}.`,
  evPlayedTaking: (who, card, taken, fromPile) =>
    `${who} ${fromPile ? "turns up" : "plays"} ${card}, taking ${taken}.`,
  evPlayedToTable: (who, card, fromPile) => `${who} ${fromPile ? "turns up" : "plays"} ${card} to the table.`,
  evTurnedTakes: (who, card, taken) => `${who} takes ${taken} with the turned-up ${card}.`,
  evRoundEnded: (r) => `Round ${r + 1} is scored.`,
  evLegWon: (who) => `${who} wins this game of the match.`,
  evGameEnded: (who) => `${who} wins!`,
  // round end & game end
  roundOver: (r) => `Round ${r + 1} — scores`,
  breakdownCards: "Cards",
  breakdownYaku: "Yaku",
  breakdownLucky: "Lucky hands",
  roundScore: "Round score",
  counted: (n) => `counted for fuke: ${n}`,
  adds: "Adds",
  totalAfter: "Total",
  fukeVoid: "Fuke: a counted score is too low, so every round score is void.",
  instantWin: (who, yaku) => `Instant win: ${who} with ${yaku}.`,
  continue: "Continue",
  gameOver: "Game over",
  wins: (who, why) => `${who} wins — ${why}.`,
  youWin: "You win!",
  downloadRecord: "Download the game record",
  newGame: "New game",
  instantReason: (yaku) => `instant win with ${yaku}`,
  targetReason: (yaku) => `reached the target, with ${yaku} this round`,
  // calculator
  calcTitle: "Score calculator",
  calcIntro:
    "For games with physical cards: pick the player, tap the cards they captured (in capture order " +
    "if rain-off counts it), tick declared lucky hands, then score the round.",
  calcPlayer: (i) => `Player ${i + 1}`,
  calcCapturing: "Tap cards for",
  calcLucky: "Declared lucky hands",
  calcScore: "Score the round",
  calcClear: "Clear all",
  calcCount: (n, p) => `${n} cards, ${p} points`,
  calcOwner: (i) => `P${i + 1}`,
  // replay
  replayTitle: "Replay viewer",
  replayIntro: "Open a game record (a .json file) or pick a finished game, then step through it.",
  replayOpen: "Open a record file",
  replayBadFile: "This file is not a roppyakken-record/1 game record.",
  replayStart: "Start",
  replayPrevRound: "Previous round",
  replayBack: "Step back",
  replayForward: "Step forward",
  replayNextRound: "Next round",
  replayEnd: "End",
  replayPlay: "Play",
  replayPause: "Pause",
  replayStep: (i, n) => `step ${i} of ${n}`,
  replayDeal: "The deal",
  replayScores: "Round scores",
  replayWinner: (who) => `Winner: ${who}`,
  replayUnfinished: "This game was not finished.",
  // rules help
  rulesTitle: (preset) => `Rules: ${preset}`,
  rulesHowTo: "How to play",
  rulesYaku: "Yaku",
  rulesLuckyHands: "Lucky hands",
  rulesOptions: "Every option",
  rulesNoLucky: "No lucky hands under these rules.",
  rulesCardValues: "Card values",
  points: (p) => `${p} points`,
  pts: (p) => `${p}`,
  yes: "yes",
  no: "no",
  none: "none",
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
 * The display name of each player: a bot ("bot:<level>") gets a proper name (BOT_NAMES; a
 * second bot of the same level the second name), and with `withLevel` its level too.
 */
export function playerNames(names, { withLevel = false } = {}) {
  const levels = names.map(botLevel);
  return names.map((n, seat) => {
    const level = levels[seat];
    if (!level) return n || T.seatN(seat);
    const same = levels.slice(0, seat).filter((l) => l === level).length;
    const list = BOT_NAMES[level];
    const name = list ? list[same % list.length] : T.botFallbackName(level);
    return withLevel ? T.botWithLevel(name, BOT_LEVEL_NAMES[level] || level) : name;
  });
}

/** Player names made distinct for display: bots named (playerNames), a repeated name gets its seat. */
export function distinctNames(names) {
  const shown = playerNames(names);
  return shown.map((name, seat) =>
    shown.filter((x) => x === name).length > 1 ? `${name} (${T.seatN(seat)})` : name,
  );
}

/** A readable reason for the end of a game (engine `end_reason` strings). */
export function reasonText(reason) {
  if (!reason) return "";
  if (REASONS[reason]) return REASONS[reason];
  const [head, slug] = reason.split(":");
  if (head === "instant" && slug) return T.instantReason(yakuName(slug));
  if (head === "target" && slug) return T.targetReason(yakuName(slug));
  return reason;
}
