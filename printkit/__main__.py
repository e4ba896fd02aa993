"""`python -m printkit`."""
from printkit.cli import app

app()
