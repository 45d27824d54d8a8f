// @ts-check
// The offline app's replay page: the server's (replay.js), with the rules in the page answering it (offline.js, evaluated
// first: it hands dom.js the page's requests, which the worker answers from the matches kept in this browser).

import "./offline.js";
import "./replay.js";
