"""The infrastructure leaves: what any part of the server needs and that knows no backgammon.

Owns the settings (`config`: the TOML file, every setting's default and check), the wall
clock (`wallclock`: seconds since the epoch, injected so tests set it by hand; not a
match clock), the abuse limits (`limits`: connection counts, login guards, sliding-window
rate counters, allow lists) and password hashing (`passwords`).

May import: `protocol` (its name rules) and the standard library. Never the domain, the
store, the core, the shell or trio (the import contracts in setup.cfg check it).
"""
