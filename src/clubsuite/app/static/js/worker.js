// @ts-check
// The offline app's worker: Pyodide (served from the app's own files) with clubsuite's pure-Python core, answering
// the page's requests (offline.js) with clubsuite.offline.session.handle: JSON text in, JSON text out. The rules,
// the bots and the lesson all run here, never in the page's own thread, so a searching bot never freezes the page.

/** @type {any} */
const scope = globalThis;

/** Load the interpreter and the core once; the handler of every request. */
async function start() {
  const started = performance.now();
  const {loadPyodide} = await import(new URL("../../pyodide/pyodide.mjs", import.meta.url).href); // the build's own copy
  const pyodide = await loadPyodide({indexURL: new URL("../../pyodide/", import.meta.url).href, stdout: () => {}, stderr: () => {}});
  const core = await fetch(new URL("../../core/clubsuite.zip", import.meta.url));
  if (!core.ok) throw new Error(`the rules could not be read (${core.status})`);
  const bytes = await core.arrayBuffer();
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  pyodide.unpackArchive(bytes, "zip", {extractDir: "/clubsuite"});
  pyodide.globals.set("core_sha256", digest); // the rules are named by the core that plays them (kept tables, records)
  const handle = pyodide.runPython("import sys\nsys.path.insert(0, '/clubsuite')\nfrom clubsuite.offline.table import set_rules\nset_rules(core_sha256)\nfrom clubsuite.offline.session import handle\nhandle");
  scope.postMessage({ready: Math.round(performance.now() - started)});
  return handle;
}

const ready = start();
ready.catch((err) => scope.postMessage({broken: String(err && err.message ? err.message : err)}));

scope.addEventListener("message", async (/** @type {MessageEvent} */ event) => {
  const {id, request} = event.data;
  try {
    const handle = await ready;
    const began = performance.now();
    const answer = handle(request);
    scope.postMessage({id, answer, ms: performance.now() - began});
  } catch (err) {
    scope.postMessage({id, failed: String(err && err.message ? err.message : err)});
  }
});
