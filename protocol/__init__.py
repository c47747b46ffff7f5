"""The FIBS wire protocol, sans-I/O: bytes and lines in, typed values out, and back.

This package owns framing, client commands, server lines (CLIP messages, telnet texts,
`board:` lines, ASCII boards), the one table of FIBS wording, and FIBS's settings
vocabulary and name rules (`vocabulary`), which the server's account model derives from. It must not import trio,
sockets, a clock, randomness, or anything of `fibsd`: bots and tests use it as it is.
"""
