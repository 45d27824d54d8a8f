// @ts-check
// The offline app's table page: the server's table page (table.js) with the rules in the page answering it
// (offline.js, evaluated first: it hands dom.js the table's socket and the page's requests before the table starts).

import "./offline.js";
import "./table.js";
