"""Pictures that are not SVG drawings: raster images (PNG, JPEG, WebP) and the game's inline text icons."""
from .raster import (RASTER, RASTER_REFUSED, ASPECTS, Fit, effective_dpi, image_source, is_raster, pixel_size,
                     placement)

__all__ = ["ASPECTS", "Fit", "RASTER", "RASTER_REFUSED", "effective_dpi", "image_source", "is_raster", "pixel_size",
           "placement"]
