"""Geometry below every stage: graphs, hex grids, seams, outlines and paper sizes. Numbers in, numbers out;
imports nothing of printkit."""

# what the stages above use; everything else in this folder is private to it
from .graph import Graph, corners
from .paper import BAND, BAND_CLEAR, EDGE, FOLD_GAP, MARGIN, MARK_GAP, MAX_GUTTER, MAX_MARK, MIN_GUTTER, MIN_MARK, PAPERS, Paper
from .seams import crossing, windows
from .shapes import Cluster, outline, trace
from .winding import rules_agree
from . import hexgrid

__all__ = [
    "BAND", "BAND_CLEAR", "Cluster", "EDGE", "FOLD_GAP", "Graph", "MARGIN", "MARK_GAP", "MAX_GUTTER", "MAX_MARK", "MIN_GUTTER",
    "MIN_MARK", "PAPERS", "Paper", "corners", "crossing", "hexgrid", "outline", "rules_agree", "trace", "windows"]
