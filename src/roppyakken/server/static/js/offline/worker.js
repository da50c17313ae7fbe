// The offline engine: a Web Worker that runs roppyakken's own Python core and bots on Pyodide
// (the same source the server runs, zipped by the server: server/web/offline_routes.py) and
// answers the page's calls through the bridge, roppyakken.ai.offline.call (JSON in, JSON out).
// Its script is served with a policy that lets it compile WebAssembly (server/web/guard.py).
//
// The page posts {id, boot: {pyodide, core}} once (answered with how long each part of the start
// took), then {id, request}; each is answered with {id, answer} (the bridge's JSON text) or
// {id, failure} (the runtime could not start).

/** @typedef {{pyodide: string, core: string}} Boot */

/** @type {Promise<(request: string) => string> | null} */
let bridge = null;
/** @type {Record<string, number>} how long each part of the start took, in ms (bench/bench_offline.py) */
const took = {};

/**
 * Load Pyodide from this server, unpack the core's zip and import the bridge.
 * @param {Boot} boot
 * @returns {Promise<(request: string) => string>}
 */
async function start(boot) {
  let mark = performance.now();
  const lap = (/** @type {string} */ name) => {
    const now = performance.now();
    took[name] = now - mark;
    mark = now;
  };
  const runtime = await import(boot.pyodide + "pyodide.mjs");
  const pyodide = await runtime.loadPyodide({
    indexURL: boot.pyodide,
    // the pure modules: a browser has no compiled ones (roppyakken.compiled)
    env: { HOME: "/home/pyodide", ROPPYAKKEN_PURE: "1" },
  });
  lap("pyodide");
  const zip = await fetch(boot.core);
  if (!zip.ok) throw new Error(`${boot.core}: ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/core" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/core')\n");
  lap("core");
  const module = pyodide.pyimport("roppyakken.ai.offline");
  lap("import");
  const call = module.call;
  return (/** @type {string} */ request) => String(call(request));
}

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const data = event.data || {};
  const id = data.id;
  try {
    if (data.boot) {
      bridge ||= start(data.boot);
      await bridge;
      self.postMessage({ id, answer: JSON.stringify({ ok: took }) });
      return;
    }
    if (!bridge) throw new Error("the offline engine was not started");
    const call = await bridge;
    self.postMessage({ id, answer: call(JSON.stringify(data.request)) });
  } catch (err) {
    bridge = data.boot ? null : bridge;
    self.postMessage({ id, failure: err instanceof Error ? err.message : String(err) });
  }
};
