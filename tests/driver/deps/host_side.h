// host_side.h: read by the host pass only.
#pragma once
inline int host_side_marker() { return 2; }
