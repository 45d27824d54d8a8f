// @ts-check
// The offline app's puzzle page: the server's puzzle page (puzzle.js) with the rules in the page answering it
// (offline.js, evaluated first: it hands dom.js the page's requests before the puzzles start), the shipped puzzles
// judged in the worker and the player's puzzle rating kept in this browser.

import "./offline.js";
import "./puzzle.js";
