// The system's libgps (apt: libgps-dev). Only CGPSShim includes it; Swift code sees the shim's plain-C API.
#include <gps.h>
