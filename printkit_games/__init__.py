"""Game-specific checks of the games printkit ships (not the engine: the engine knows no game).

Each check is registered by name in pyproject.toml (entry points, group `printkit.rules.checks`) and
named by the game's game.yaml. A check only reads the loaded model and returns positioned Problems.
"""
