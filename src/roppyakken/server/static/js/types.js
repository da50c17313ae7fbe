// Shared JSDoc types of the browser client, for `tsc --checkJs` (docs/WEB.md); no runtime code.
// The websocket messages, request bodies and HTTP answers are typed in wire.d.ts, generated from the
// protocol's JSON Schema (`python -m roppyakken.devtools.wiretypes`; api.js `ask` gives each answer
// its type). Typed here: what that schema leaves open (`dict[str, Any]`: the seat's view, the
// events, the choices, the documents of FORMATS.md, the rule options).

/**
 * A JSON object whose fields the protocol leaves open: used only through the names below, each
 * saying why it is open.
 * @typedef {Record<string, any>} Json
 */

/**
 * A rule set's options: open because they are the rules' data (RULES.md), not the protocol's; a
 * house rule is an option value, and the yaku table is keyed by slug (wire.d.ts PresetEntry.options).
 * @typedef {Json} RuleOptions
 */

/**
 * A game record: FORMATS.md §3's document, which the schema names (wire.d.ts GameRecord) but
 * leaves to FORMATS.md rather than declare it twice; so are its rounds and events.
 * @typedef {Json} GameRecord
 */

/**
 * A score: FORMATS.md §1's output (POST /api/score, a round's end), left to FORMATS.md as a record
 * is (wire.d.ts ScoreDocument); so is each player's part of it.
 * @typedef {Json} ScoreDocument
 */

/** A websocket message from a room (wire.d.ts). @typedef {import("./wire").ServerMessage} ServerMessage */

/** A websocket message to a room (wire.d.ts). @typedef {import("./wire").ClientMessage} ClientMessage */

/** A rule set: the preset's slug and every option's value. @typedef {{preset: string, options: RuleOptions}} RulesInfo */

/**
 * A legal action as a seat's view lists it (FORMATS.md §2: every field present), fit to send in
 * an `act` (wire.d.ts ActMessage).
 * @typedef {{type: "play", card: string, target: string[]} | {type: "take", target: string[]}
 *   | {type: "declare", hands: string[]} | {type: "redeal", call: boolean}} Action
 */

/** A lucky hand the seat holds: its slug, points and cards. @typedef {{slug: string, points: number, cards: string[]}} LuckyHand */

/**
 * The seat's view of the game (the `view` of a `state`: view.py SeatView.to_json(); the schema
 * declares it as an open object).
 * @typedef {{seat: number | null, players: number, phase: "redeal" | "declare" | "play" | "take" | "over",
 *   to_act: number, dealer: number, round: number, leg: number, totals: number[], legs: number[],
 *   hand: string[], hand_sizes: number[], table: string[], captures: string[][], pile_count: number,
 *   turned: string | null, declared: string[][], revealed: string[][], legal: Action[],
 *   lucky_hands: LuckyHand[], winner: number | null}} SeatView
 */

/**
 * What a legal action gives (an item of a `state`'s `choices`: choices.py Choice.to_json(); the
 * schema declares it as an open object): card points, yaku steps, the first equivalent action.
 * @typedef {{points: number, yaku: {slug: string, before: number, after: number, needed: number}[],
 *   same_as: number | null}} Choice
 */

/**
 * A public event of the game (an item of `events` and `history`: events.py; the schema declares
 * it as an open object).
 * @typedef {{type: "first-dealer", draws: string[][], dealer: number}
 *   | {type: "round-started", round: number, leg: number, dealer: number, redeals: number, table: string[]}
 *   | {type: "redeal", reason: string, month: number, seat: number | null}
 *   | {type: "dealer-took-four", seat: number, cards: string[]}
 *   | {type: "declared", seat: number, hands: {slug: string, points: number}[], cards: string[]}
 *   | {type: "turned", seat: number, card: string}
 *   | {type: "played", seat: number, source: "hand" | "pile", card: string, captured: string[]}
 *   | {type: "round-ended", round: number, score: ScoreDocument, totals: number[]}
 *   | {type: "leg-won", seat: number, reason: string, legs: number[]}
 *   | {type: "game-ended", winner: number, reason: string}} GameEvent
 */

/**
 * Where a table's moves go, and how busy it is: the room's websocket (conn.js) today, the
 * tutorial's script, or an offline engine. Whether a message sent now is delivered, how many
 * messages wait to be drawn (animations shorten), and a way to send. The source answers by
 * handing the table its messages (GameView.receive).
 * @typedef {{open: boolean, backlog: number, send: (msg: ClientMessage) => unknown}} MoveSource
 */

export {};
