"""printkit: print-and-play kits from YAML."""

__version__ = "0.1.0"
