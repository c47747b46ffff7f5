"""The rules of backgammon, pure: positions, legal plays, games, the cube and matches.

No trio, no sockets, no protocol, no clock and no hidden randomness: dice come in from
outside.
"""
