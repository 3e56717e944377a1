"""cupy.cuda.graph of the fake CuPy: the graphs that stream capture makes
(Stream.begin_capture, end_capture)."""
from fake_cupy._runtime import Graph

__all__ = ["Graph"]
