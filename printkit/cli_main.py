"""`python -m printkit.cli_main`: the CLI without relying on the console script being on PATH."""
from printkit.cli import app

app()
