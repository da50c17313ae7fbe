// Korean particles chosen by the sound they follow (as roppyakken/korean.py does for the
// terminal).  A Korean template writes both forms, "{name}이(가)", "{card}을(를)"; once it is
// filled, particles() keeps the form that fits the word before it: after a final consonant
// 이, 을, 은, 과, 으로; after a vowel 가, 를, 는, 와, 로; after a final ㄹ, 로.  Digits are read
// as Korean numbers, Latin words by a rough English reading; after anything else both stay.

const PARTICLE = /이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로/g;
/** @type {Record<string, [string, string]>} (after a final consonant, after a vowel) */
const FORMS = {
  "이(가)": ["이", "가"],
  "가(이)": ["이", "가"],
  "을(를)": ["을", "를"],
  "를(을)": ["을", "를"],
  "은(는)": ["은", "는"],
  "는(은)": ["은", "는"],
  "과(와)": ["과", "와"],
  "와(과)": ["과", "와"],
  "(으)로": ["으로", "로"],
};
const GLOSS = /(?<=[\uac00-\ud7a3])\s*\[[^[\]]*\]\s*$/;
const SKIPPED = new Set([..." )]}」』\"'’”»›"]);
const RIEUL = 8; // ㄹ among the 28 finals of a Hangul syllable (0: none)
/** @type {Record<string, Sound>} 영 일 이 삼 사 오 육 칠 팔 구 (and 십, 백, 천, 만) */
const DIGIT = {
  0: "final",
  1: "rieul",
  2: "vowel",
  3: "final",
  4: "vowel",
  5: "vowel",
  6: "final",
  7: "rieul",
  8: "rieul",
  9: "vowel",
};

/** @typedef {"final" | "rieul" | "vowel"} Sound */

/**
 * The last sound of a Latin word as Korean reads it (initials by their letter names).
 * @param {string} word
 * @returns {Sound}
 */
function latin(word) {
  if (word.length === 1 || word === word.toUpperCase()) {
    const last = word[word.length - 1].toUpperCase(); // 엘, 알 / 엠, 엔 / 에이, 비, 씨…
    return "LR".includes(last) ? "rieul" : "MN".includes(last) ? "final" : "vowel";
  }
  const lower = word.toLowerCase();
  if (/(l|le)$/.test(lower)) return "rieul"; // Bill 빌, Apple 애플
  if (/(m|n|ng)$/.test(lower)) return "final"; // Tom 톰, Ryan 라이언, King 킹
  return "vowel"; // Kenji 켄지, Alice 앨리스, Mark 마크
}

/**
 * How `text` ends when read: a consonant, ㄹ, a vowel, or null when unknown.
 * @param {string} text
 * @returns {Sound | null}
 */
export function lastSound(text) {
  const gloss = GLOSS.exec(text); // a card's [slug] after its name is not read aloud
  const read = gloss && gloss.index > 0 ? text.slice(0, gloss.index) : text;
  let end = read.length;
  while (end && SKIPPED.has(read[end - 1])) end--;
  if (!end) return null;
  const ch = read[end - 1];
  const code = ch.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const final = (code - 0xac00) % 28;
    return final === 0 ? "vowel" : final === RIEUL ? "rieul" : "final";
  }
  if (ch in DIGIT) return DIGIT[/** @type {keyof typeof DIGIT} */ (ch)];
  const word = /[A-Za-z]+$/.exec(read.slice(0, end));
  return word ? latin(word[0]) : null;
}

/**
 * The form of the particle `pair` ("이(가)", "을(를)", "(으)로"…) that fits after `before`.
 * @param {string} before
 * @param {string} pair
 * @returns {string}
 */
export function particle(before, pair) {
  const [consonant, vowel] = FORMS[pair];
  const sound = lastSound(before);
  if (sound === null) return pair;
  if (pair === "(으)로") return sound === "final" ? consonant : vowel;
  return sound === "vowel" ? vowel : consonant;
}

/**
 * `text` with every two-form particle resolved by the word before it.
 * @param {string} text
 * @returns {string}
 */
export function particles(text) {
  return text.replace(PARTICLE, (pair, offset) => particle(text.slice(0, offset), pair));
}
