/* options_probe_value.h: found only through an -I option (see
 * options_probe.cu). */
#ifndef OPTIONS_PROBE_VALUE_H
#define OPTIONS_PROBE_VALUE_H

#define OPTIONS_PROBE_HEADER_VALUE 11

#endif
