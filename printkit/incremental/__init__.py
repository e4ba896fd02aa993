"""Stage 6, beside the build: build only what changed, on every core.

Owns the keys of an output file's inputs (keys: content, templates, fonts, printkit itself, settings),
the records of the last build kept with the output in `.printkit-cache.json` (record: which files are
still fresh, and what each added to the fit report), and the process pool the build's independent
units run in (pool), the lock that lets one build at a time write into an output folder (lock), and which
earlier files a build answers for and no longer makes (selection).
`build` plans, draws and commits with them.
"""

from .keys import GameKeys, code_key, game_keys
from .lock import hold
from .pool import batch_collection, context, keep_unit_times, run_units, tell, unit_times
from .record import CACHE_FILE, FACES_FILE, Drawn, Records, file_sha, manifest_entries, manifest_shas, manifest_text
from .selection import Selection, left_behind

__all__ = ["CACHE_FILE", "FACES_FILE", "Drawn", "GameKeys", "Records", "batch_collection", "code_key", "context", "file_sha", "game_keys",
           "hold", "keep_unit_times", "left_behind", "manifest_entries", "manifest_shas", "manifest_text", "run_units",
           "Selection", "tell", "unit_times"]
