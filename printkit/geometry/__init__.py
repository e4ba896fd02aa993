"""Pure geometry: graph boards, imposition grids, tiling. Numbers in, numbers out."""
