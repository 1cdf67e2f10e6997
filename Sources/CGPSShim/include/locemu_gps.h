// A small plain-C face on libgps for Swift: no variadic calls, no API-version
// differences, no 24 KB struct crossing into Swift. Everything libgps-specific
// stays in locemu_gps.c.
#ifndef LOCEMU_GPS_H
#define LOCEMU_GPS_H

#include <stdint.h>

/// An open libgps session (owns a heap-allocated gps_data_t).
typedef struct locemu_gps locemu_gps;

/// What one message from gpsd was.
typedef enum {
  LOCEMU_MESSAGE_OTHER = 0,    ///< VERSION, WATCH, SKY, ... (nothing we use)
  LOCEMU_MESSAGE_TPV = 1,      ///< a time-position-velocity report
  LOCEMU_MESSAGE_DEVICE = 2,   ///< one device was activated or closed
  LOCEMU_MESSAGE_DEVICES = 3,  ///< the list of devices gpsd has
  LOCEMU_MESSAGE_ERROR = 4,    ///< gpsd's ERROR class, with its message
} locemu_message_kind;

/// One decoded message. Unknown doubles are NaN.
typedef struct {
  locemu_message_kind kind;
  int mode;             ///< TPV: 0 not seen, 1 no fix, 2 2D, 3 3D
  int has_time;         ///< TPV: whether time_sec/time_nsec are set
  int64_t time_sec;
  int64_t time_nsec;
  double latitude, longitude, alt_msl, alt_hae, speed, track, eph, epv;
  int status;           ///< TPV: gpsd's STATUS_* (0 unknown, 1 fix, 2 DGPS, ...)
  double climb, geoid_sep, magnetic_var;
  double epx, epy, eps, epd, epc, ept, sep;
  int device_activated; ///< DEVICE: 1 when activated, 0 when closed
  int device_count;     ///< DEVICES: number of devices
  char device[128];     ///< TPV/DEVICE: the device path, if gpsd said
  char message[256];    ///< ERROR: gpsd's text
} locemu_gps_message;

/// The libgps API major version this shim was compiled against.
int locemu_gps_api_major(void);

/// Connects to gpsd. Returns NULL and sets *error (a libgps/errno code for
/// locemu_gps_errstr) when it cannot.
locemu_gps *locemu_gps_open(const char *host, const char *port, int *error);

/// Starts JSON streaming of all devices, or of `device` when it is not NULL.
/// Returns 0 on success, -1 when the request could not be sent.
int locemu_gps_watch(locemu_gps *gps, const char *device);

/// Whether a message is ready within `timeout_us` microseconds.
int locemu_gps_waiting(locemu_gps *gps, int timeout_us);

/// Reads one message. Returns -1 when the connection failed or closed.
int locemu_gps_read(locemu_gps *gps, locemu_gps_message *out);

/// Closes the session and frees it.
void locemu_gps_close(locemu_gps *gps);

/// libgps's own message for an error code from locemu_gps_open.
const char *locemu_gps_errstr(int error);

#endif
