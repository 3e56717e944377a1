"""cupy.cuda.nvtx of the fake CuPy: markers and ranges (see _profiler.py)."""
from fake_cupy._profiler import Mark, MarkC, RangePop, RangePush, RangePushC

__all__ = ["Mark", "MarkC", "RangePop", "RangePush", "RangePushC"]
