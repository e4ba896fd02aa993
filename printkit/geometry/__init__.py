"""Geometry below every stage: graphs, hex grids, seams, outlines and paper sizes. Numbers in, numbers out;
imports nothing of printkit."""
