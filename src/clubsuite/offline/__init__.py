"""The offline table: clubsuite's rules, bots and presentation run in the page (a Web Worker running Pyodide), with
no server at all.

:mod:`clubsuite.offline.table` is one table of one person and bots, speaking the table protocol a server's table
speaks (``docs/protocol.md``; its messages made by :mod:`clubsuite.tabletalk`, as the server's are), so the table
page plays it as it plays a server's table. :mod:`clubsuite.offline.session` is the worker's one entry: a request
in JSON in, the messages and answers in JSON out. Everything here runs with the standard library alone (a test
imports it with every other package blocked), as the page has nothing else.
"""
