"""The trio shell: everything that waits, on sockets, threads, processes and time.

Owns the command loop (`server`), opening the ports (`listeners`), a connection's framing
and outbox (`connection`), the login dialogue (`login`), the group commit (`committer`),
putting an outcome's lines onto connections (`delivery`) in order (`ordering`), TLS
(`tls`), the HTTP/WebSocket listener of the web client (`web`) and the GNU Backgammon
worker processes of engine analysis (`analysis_workers`). The command line is
`fibsd/__main__.py`.

May import anything below it: the core (`fibsd.app`), the store, the leaves
(`fibsd.domain`, `fibsd.infra`), `fibsd.rules`, `protocol`, trio. Nothing below imports
it; its parts (committer, delivery, ordering, connection) never import the server, the
login dialogue or the listeners (the import contracts in setup.cfg).
"""
