// The system zlib (Debian's zlib1g-dev): inflating the zlib-compressed blocks of OSM PBF files.
#include <zlib.h>
