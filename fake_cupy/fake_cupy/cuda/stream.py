"""cupy.cuda.stream of the fake CuPy."""
from fake_cupy._runtime import (BaseStream, Event, ExternalStream, Stream,
                                get_current_stream, get_elapsed_time)

__all__ = ["BaseStream", "Event", "ExternalStream", "Stream",
           "get_current_stream", "get_elapsed_time"]
