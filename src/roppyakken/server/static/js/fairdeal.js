// Fair deals (docs/PROTOCOL.md, "Fair deals"): check a finished record's commitment and re-derive
// every deal from its revealed seed, in the browser, without trusting the server.
// Self-contained (SHA-256 and SHAKE-128 written out) so that it works on any page and in Node.

const SCHEME = "roppyakken-deal/1";
const MAX_ATTEMPTS = 100;

/**
 * Fill the {named} fields of an English message: the translator used when none is given
 * (in Node, where the page's catalog is not loaded).
 * @param {string} message
 * @param {Record<string, string|number>} [fields]
 * @returns {string}
 */
function english(message, fields) {
  if (!fields) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/**
 * @typedef {object} FairText
 * @property {(commitment: string) => string} committed  the room's promise, shown before the game
 * @property {(commitment: string) => string} verified  the replay page's verdict on an honest record
 * @property {(why: string) => string} failed  the verdict on a record whose deals the seed does not give
 * @property {string} missing
 * @property {string} mismatch
 * @property {string} dealer
 * @property {(round: number) => string} round
 */

/**
 * The fair-deal messages in a language: `t` is the page's translator (i18n.js), so that the
 * messages are extracted into the catalogs; without it they stay English.
 * @param {(message: string, fields?: Record<string, string|number>) => string} [t]
 * @returns {FairText}
 */
export function fairText(t = english) {
  return {
    committed: (c) =>
      t(
        "Fair deal: the server has committed to this game's secret deal (SHA-256 {hash}…); the record will reveal it and the replay page checks it.",
        { hash: c.slice(0, 16) },
      ),
    verified: (c) =>
      t(
        "Fair deal verified: the revealed seed matches the commitment {hash}… shown before the game, and deals every round.",
        { hash: c.slice(0, 16) },
      ),
    failed: (why) => t("Deal check FAILED: {why}", { why }),
    missing: t("the seed or salt is missing"),
    mismatch: t("the revealed seed and salt do not match the commitment"),
    dealer: t("the first dealer is not the one the seed draws"),
    round: (n) => t("round {n}'s deal is not one the revealed seed gives", { n }),
  };
}

/**
 * @param {string} text
 * @returns {Uint8Array}
 */
function utf8(text) {
  return new TextEncoder().encode(text);
}

// ---------------------------------------------------------------- SHA-256

const K256 = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of a text's UTF-8 bytes, as lowercase hex.
 * @param {string} text
 * @returns {string}
 */
export function sha256Hex(text) {
  const data = utf8(text);
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const bytes = new Uint8Array(length);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(length - 4, data.length * 8);
  view.setUint32(length - 8, Math.floor((data.length * 8) / 2 ** 32));
  const hash = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  /** @param {number} x @param {number} n */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((v, i) => {
      hash[i] = (hash[i] + v) >>> 0;
    });
  }
  return Array.from(hash, (v) => v.toString(16).padStart(8, "0")).join("");
}

// ---------------------------------------------------------------- SHAKE-128

const MASK = (1n << 64n) - 1n;
const RC = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];
const ROT = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14],
];

/**
 * @param {bigint} x
 * @param {number} n
 * @returns {bigint}
 */
function rotl(x, n) {
  const s = BigInt(n);
  return n === 0 ? x : ((x << s) | (x >> (64n - s))) & MASK;
}

/** @param {bigint[]} a */
function keccakF(a) {
  /** @type {bigint[]} */
  const b = new Array(25);
  /** @type {bigint[]} */
  const c = new Array(5);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 5; y++) a[x + 5 * y] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROT[x][y]);
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[((x + 1) % 5) + 5 * y] & MASK & b[((x + 2) % 5) + 5 * y]);
      }
    }
    a[0] ^= RC[round];
  }
}

/**
 * SHAKE-128 of a short text (under 168 bytes), ``count`` output bytes.
 * @param {string} text
 * @param {number} count
 * @returns {Uint8Array}
 */
export function shake128(text, count) {
  const rate = 168;
  const data = utf8(text);
  if (data.length >= rate) throw new Error("label too long");
  const block = new Uint8Array(rate);
  block.set(data);
  block[data.length] ^= 0x1f;
  block[rate - 1] ^= 0x80;
  const state = new Array(25).fill(0n);
  for (let i = 0; i < rate / 8; i++) {
    let lane = 0n;
    for (let j = 7; j >= 0; j--) lane = (lane << 8n) | BigInt(block[8 * i + j]);
    state[i] ^= lane;
  }
  const out = new Uint8Array(count);
  let filled = 0;
  for (;;) {
    keccakF(state);
    for (let i = 0; i < rate && filled < count; i++, filled++) {
      out[filled] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
    }
    if (filled >= count) return out;
  }
}

// ---------------------------------------------------------------- decks and deals (engine.py)

/**
 * ``shuffled_by(label)``: the 48 card ids ordered by 32-bit big-endian SHAKE-128 keys (ties by id).
 * @param {string} label
 * @returns {number[]}
 */
export function shuffledBy(label) {
  const bytes = shake128(label, 4 * 48);
  const view = new DataView(bytes.buffer);
  const ids = Array.from({ length: 48 }, (_, i) => i);
  return ids.sort((x, y) => view.getUint32(4 * x) - view.getUint32(4 * y) || x - y);
}

/**
 * @param {number} players
 * @param {boolean} tenCards
 * @returns {Array<[number, number]>}
 */
function dealPattern(players, tenCards) {
  const [hand, table] = players === 2 ? (tenCards ? [10, 8] : [8, 8]) : [7, 6];
  const first = hand % 2 === 0 ? hand / 2 : (hand + 1) / 2;
  const tableFirst = Math.floor(table / 2);
  /** @type {Array<[number, number]>} */
  const packets = [];
  for (const [size, tsize] of [
    [first, tableFirst],
    [hand - first, table - tableFirst],
  ]) {
    for (let i = 0; i < players; i++) packets.push([i, size]);
    packets.push([-1, tsize]);
  }
  return packets;
}

/**
 * @param {number[]} deck
 * @param {number} players
 * @param {number} dealer
 * @param {Array<[number, number]>} pattern
 * @returns {{hands: number[][], table: number[], pile: number[]}}
 */
function deal(deck, players, dealer, pattern) {
  /** @type {number[][]} */
  const hands = Array.from({ length: players }, () => []);
  /** @type {number[]} */
  const table = [];
  let pos = 0;
  for (const [who, count] of pattern) {
    const cards = deck.slice(pos, pos + count);
    pos += count;
    if (who < 0) table.push(...cards);
    else hands[(dealer + 1 + who) % players].push(...cards);
  }
  return { hands, table, pile: deck.slice(pos) };
}

/** @param {number[]} a @param {number[]} b */
const sameSet = (a, b) => a.length === b.length && [...a].sort((x, y) => x - y).join() === [...b].sort((x, y) => x - y).join();

/**
 * @param {number} seed
 * @param {number} players
 * @returns {number}
 */
function firstDealer(seed, players) {
  let contenders = Array.from({ length: players }, (_, i) => i);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const deck = shuffledBy(`roppyakken:${seed}:first-dealer:${attempt}`);
    const months = contenders.map((_, i) => Math.floor(deck[i] / 4) + 1);
    const earliest = Math.min(...months);
    contenders = contenders.filter((_, i) => months[i] === earliest);
    if (contenders.length === 1) return contenders[0];
  }
  return -1;
}

/**
 * Check a record's deal commitment: null when it has none (an older record, a solo game's chosen seed),
 * else {ok, message}.  ``slugs`` are the card slugs in id order; ``text`` says it (fairText(t)).
 * @param {import("./types.js").GameRecord} record
 * @param {readonly string[]} slugs
 * @param {FairText} [text]
 * @returns {{ok: boolean, message: string} | null}
 */
export function verifyDeals(record, slugs, text = fairText()) {
  const commitment = record.commitment;
  if (typeof commitment !== "string") return null;
  /** @param {string} why */
  const fail = (why) => ({ ok: false, message: text.failed(why) });
  const { seed, salt } = record;
  if (!Number.isSafeInteger(seed) || typeof salt !== "string") return fail(text.missing);
  if (sha256Hex(`${SCHEME}:${seed}:${salt}`) !== commitment) {
    return fail(text.mismatch);
  }
  const players = record.players.length;
  const tenCards = Boolean(record.rules && record.rules.options && record.rules.options.ten_card_deal);
  const pattern = dealPattern(players, tenCards);
  /** @type {Map<string, number>} */
  const id = new Map(slugs.map((s, i) => [s, i]));
  /** @param {string[]} list @returns {number[]} */
  const ids = (list) => list.map((s) => id.get(s) ?? -1);
  if (record.rounds.length && firstDealer(seed, players) !== record.rounds[0].dealer) {
    return fail(text.dealer);
  }
  for (const [r, rnd] of record.rounds.entries()) {
    const hands = rnd.hands.map(ids);
    const table = ids(rnd.table);
    const pile = ids(rnd.pile).join();
    let found = false;
    for (let attempt = 0; attempt <= MAX_ATTEMPTS && !found; attempt++) {
      const d = deal(shuffledBy(`roppyakken:${seed}:${r}:${attempt}`), players, rnd.dealer, pattern);
      found = d.pile.join() === pile && sameSet(d.table, table) && d.hands.every((h, i) => sameSet(h, hands[i]));
    }
    if (!found) return fail(text.round(r + 1));
  }
  return { ok: true, message: text.verified(commitment) };
}
