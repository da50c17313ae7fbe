// Card sounds, synthesized with the Web Audio API (no audio files): a card placed, a capture,
// a yaku completed, your turn, the clock running out.  A switch mutes them, remembered in
// localStorage; with nothing chosen they are on for a player and off for a spectator, and off
// when the system asks for reduced motion (the same people tend to want a quiet table).

/** @typedef {"place" | "capture" | "yaku" | "turn" | "clock"} Cue */

const KEY = "roppyakken-sound";
const SPECTATOR_KEY = "roppyakken-sound-spectating";

/** @returns {boolean} */
function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * @param {string} key
 * @returns {string | null}
 */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * Whether sounds play for this page: the remembered choice, else on for a player and off for
 * a spectator or under prefers-reduced-motion.
 * @param {boolean} spectator
 * @returns {boolean}
 */
export function soundOn(spectator) {
  const choice = stored(spectator ? SPECTATOR_KEY : KEY);
  if (choice === "on") return true;
  if (choice === "off") return false;
  return !spectator && !reducedMotion();
}

/**
 * Remember the choice (for players or for spectators).
 * @param {boolean} spectator
 * @param {boolean} on
 */
export function setSoundOn(spectator, on) {
  try {
    localStorage.setItem(spectator ? SPECTATOR_KEY : KEY, on ? "on" : "off");
  } catch {
    // storage disabled: the choice lasts for this page
  }
}

/** The last cues synthesized on this page, in order (what a test or a curious player can read). */
export const played = /** @type {Cue[]} */ ([]);

/** @type {AudioContext | null} */
let context = null;

/** @returns {AudioContext | null} */
function audio() {
  if (context) return context;
  const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

/**
 * A short tone with a quick attack and an exponential decay.
 * @param {AudioContext} ctx
 * @param {{freq: number, start?: number, length?: number, type?: OscillatorType, gain?: number, to?: number}} note
 */
function tone(ctx, { freq, start = 0, length = 0.12, type = "sine", gain = 0.18, to = 0 }) {
  const t0 = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/**
 * The click of a card laid on the table: a burst of filtered noise.
 * @param {AudioContext} ctx
 * @param {number} [start]
 * @param {number} [gain]
 */
function snap(ctx, start = 0, gain = 0.5) {
  const t0 = ctx.currentTime + start;
  const length = 0.06;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2200;
  filter.Q.value = 0.8;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(t0);
}

/** @type {Record<Cue, (ctx: AudioContext) => void>} */
const CUES = {
  place: (ctx) => snap(ctx),
  capture: (ctx) => {
    snap(ctx);
    snap(ctx, 0.07, 0.6);
    tone(ctx, { freq: 660, start: 0.06, length: 0.1, type: "triangle", gain: 0.08 });
  },
  yaku: (ctx) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) =>
      tone(ctx, { freq, start: i * 0.09, length: 0.28, type: "triangle", gain: 0.12 }),
    );
  },
  turn: (ctx) => {
    tone(ctx, { freq: 880, length: 0.16, gain: 0.1 });
    tone(ctx, { freq: 1174.66, start: 0.12, length: 0.2, gain: 0.08 });
  },
  clock: (ctx) => {
    for (let i = 0; i < 3; i++) tone(ctx, { freq: 1320, start: i * 0.18, length: 0.08, type: "square", gain: 0.05 });
  },
};

/** The sounds of one table: muted or not, by the player's choice. */
export class Sounds {
  /** @param {boolean} spectator */
  constructor(spectator) {
    this.spectator = spectator;
    this.on = soundOn(spectator);
  }

  /**
   * Turn the sounds on or off, and remember it.
   * @param {boolean} on
   */
  set(on) {
    this.on = on;
    setSoundOn(this.spectator, on);
    if (on) this.play("place");
  }

  /**
   * Play a cue (nothing when muted, or when the browser has no Web Audio).
   * @param {Cue} cue
   * @returns {boolean} whether it was synthesized
   */
  play(cue) {
    if (!this.on) return false;
    const ctx = audio();
    if (!ctx) return false;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    CUES[cue](ctx);
    played.push(cue);
    if (played.length > 200) played.shift();
    return true;
  }
}
