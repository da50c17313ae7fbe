// Game records kept in this browser (IndexedDB): the games played offline, to replay them and,
// back online, to upload them to the player's profile (POST /api/me/offline-games).

const DB = "roppyakken-offline";
const STORE = "records";

/**
 * A saved game: its record (FORMATS.md §3), when it was saved, and where it went if uploaded.
 * @typedef {{id?: number, saved_at: string, record: import("./types.js").Json,
 *   uploaded: {id: string, profile: string} | null}} SavedGame
 */

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Run `work` in a transaction of the records' store; its request's result.
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const req = work(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

/**
 * Keep a finished game's record; its id.
 * @param {import("./types.js").Json} record
 * @returns {Promise<number>}
 */
export async function saveRecord(record) {
  /** @type {SavedGame} */
  const entry = { saved_at: new Date().toISOString(), record, uploaded: null };
  return Number(await run("readwrite", (s) => s.add(entry)));
}

/** Every saved game, the latest first. @returns {Promise<SavedGame[]>} */
export async function savedGames() {
  /** @type {SavedGame[]} */
  const all = await run("readonly", (s) => s.getAll());
  return all.sort((a, b) => b.saved_at.localeCompare(a.saved_at));
}

/** @param {number} id @returns {Promise<SavedGame | undefined>} */
export function savedGame(id) {
  return run("readonly", (s) => s.get(id));
}

/**
 * Remember that a saved game was uploaded (the server's answer).
 * @param {number} id
 * @param {{id: string, profile: string}} uploaded
 */
export async function markUploaded(id, uploaded) {
  const entry = await savedGame(id);
  if (!entry) return;
  entry.uploaded = { id: uploaded.id, profile: uploaded.profile };
  await run("readwrite", (s) => s.put(entry));
}

/** @param {number} id */
export async function deleteSaved(id) {
  await run("readwrite", (s) => s.delete(id));
}
