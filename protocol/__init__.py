"""The FIBS wire protocol, sans-I/O: bytes and lines in, typed values out, and back.

This package owns framing, client commands, server lines (CLIP messages, telnet texts,
`board:` lines, ASCII boards) and the one table of FIBS wording. It must not import trio,
sockets, a clock, randomness, or anything of `fibsd`: bots and tests use it as it is.
"""
