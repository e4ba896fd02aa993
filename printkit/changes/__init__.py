"""Stage 6, beside the build: what changed between two builds of a game, piece by piece.

Owns the fingerprint of every piece face (fingerprint: what a face prints, pictures and fonts included,
kept with the output in <game>/.printkit-faces.json), the pieces that changed since the last build or a git revision
(since), and the reprint sheet that gangs only those pieces (reprint), and the saves watch mode rebuilds on (watch). `build` writes them;
`cli` names them after each build and in watch mode.
"""

from .fingerprint import FACES_FILE, PieceKey, changed_keys, face_prints, faces_json, read_faces
from .reprint import draw_reprint, reprint_files, reprint_pieces
from .since import faces_since
from .watch import saves, watched

__all__ = ["FACES_FILE", "PieceKey", "changed_keys", "draw_reprint", "face_prints", "faces_json", "faces_since",
           "read_faces", "reprint_files", "reprint_pieces", "saves", "watched"]
