"""The domain leaves: backgammon club facts as plain values, without a server around them.

Owns accounts and their settings (`accounts`), rating arithmetic (`ratings`), where dice
come from (`dice`) and the published fair-dice scheme (`fairdice`), the `.mat` match
format (`matfile`), and engine analysis as data (`match_analysis`: gnubg's output read
into values, PR, bands, the script gnubg runs).

May import: `fibsd.rules`, `protocol`, `fibsd.infra` and the standard library. Never the
store, the core (`fibsd.app`), the shell or trio (the import contracts in setup.cfg).
"""
