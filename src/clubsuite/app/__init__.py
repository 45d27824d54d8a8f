"""The offline app: clubsuite's table, lessons and puzzles as an installable web app whose rules run in the page.

:mod:`clubsuite.app.build` writes the app as a folder of static files (``clubs app build DIR``; ``clubs serve``
serves the same at ``/app``): the pages and scripts of the server's table with the app's own lobby, the page's
catalogs, a zip of clubsuite's pure-Python core (:mod:`clubsuite.offline` is its entry) and Pyodide
(:mod:`clubsuite.app.runtime`), a web app manifest and a service worker that keeps every file for use with no
network. ``docs/app.md`` says what the app does, what it needs and how fast it is.
"""
