#include "locemu_gps.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <gps.h>

// gps_read(data, message, length) is API 7 and later; fix.time became a
// timespec in API 9. Older or unknown-newer libgps is refused at build time.
#if !defined(GPSD_API_MAJOR_VERSION)
#error "gps.h does not define GPSD_API_MAJOR_VERSION: install libgps-dev from gpsd 3.20 or later"
#elif GPSD_API_MAJOR_VERSION < 9 || GPSD_API_MAJOR_VERSION > 14
#error "unsupported libgps API major version (supported: 9 to 14, gpsd 3.20 to 3.26); see Sources/CGPSShim"
#endif

// Our own watch flags: watch_t and some WATCH_ names differ between releases.
enum {
  LOCEMU_WATCH_ENABLE = 0x000001u,
  LOCEMU_WATCH_JSON = 0x000010u,
  LOCEMU_WATCH_DEVICE = 0x000800u,
};

struct locemu_gps {
  struct gps_data_t data;
  char line[16384];  // larger than any gpsd JSON response
};

int locemu_gps_api_major(void) { return GPSD_API_MAJOR_VERSION; }

locemu_gps *locemu_gps_open(const char *host, const char *port, int *error) {
  locemu_gps *gps = calloc(1, sizeof *gps);
  if (gps == NULL) {
    *error = ENOMEM;
    return NULL;
  }
  errno = 0;
  if (gps_open(host, port, &gps->data) != 0) {
    *error = errno != 0 ? errno : -1;
    free(gps);
    return NULL;
  }
  // Not inherited by a process the app starts: a child holding the connection would keep it
  // open after gps_close, and gpsd would go on watching for a client that left.
  if (gps->data.gps_fd >= 0) fcntl(gps->data.gps_fd, F_SETFD, FD_CLOEXEC);
  *error = 0;
  return gps;
}

int locemu_gps_watch(locemu_gps *gps, const char *device) {
  unsigned int flags = LOCEMU_WATCH_ENABLE | LOCEMU_WATCH_JSON;
  if (device != NULL) flags |= LOCEMU_WATCH_DEVICE;
  return gps_stream(&gps->data, flags, (void *)device) == 0 ? 0 : -1;
}

int locemu_gps_waiting(locemu_gps *gps, int timeout_us) {
  return gps_waiting(&gps->data, timeout_us) ? 1 : 0;
}

static int has_class(const char *line, const char *name) {
  char tag[32];
  snprintf(tag, sizeof tag, "\"class\":\"%s\"", name);
  return strstr(line, tag) != NULL;
}

int locemu_gps_read(locemu_gps *gps, locemu_gps_message *out) {
  memset(out, 0, sizeof *out);
  gps->line[0] = '\0';
  int n = gps_read(&gps->data, gps->line, (int)sizeof gps->line - 1);
  if (n < 0) return -1;
  gps->line[sizeof gps->line - 1] = '\0';
  const struct gps_data_t *d = &gps->data;
  out->latitude = out->longitude = out->alt_msl = out->alt_hae = NAN;
  out->speed = out->track = out->eph = out->epv = NAN;
  out->climb = out->geoid_sep = out->magnetic_var = NAN;
  out->epx = out->epy = out->eps = out->epd = out->epc = out->ept = out->sep = NAN;
  if (has_class(gps->line, "TPV")) {
    out->kind = LOCEMU_MESSAGE_TPV;
    out->mode = d->fix.mode;
    out->has_time = (d->set & TIME_SET) != 0 && d->fix.time.tv_sec != 0;
    out->time_sec = (int64_t)d->fix.time.tv_sec;
    out->time_nsec = (int64_t)d->fix.time.tv_nsec;
    out->status = d->fix.status;
    out->ept = d->fix.ept;
    if (d->fix.mode >= MODE_2D) {
      out->climb = d->fix.climb;
      out->geoid_sep = d->fix.geoid_sep;
      out->magnetic_var = d->fix.magnetic_var;
      out->epx = d->fix.epx;
      out->epy = d->fix.epy;
      out->eps = d->fix.eps;
      out->epd = d->fix.epd;
      out->epc = d->fix.epc;
      out->sep = d->fix.sep;
      out->latitude = d->fix.latitude;
      out->longitude = d->fix.longitude;
      out->speed = d->fix.speed;
      out->track = d->fix.track;
      out->eph = d->fix.eph;
      out->epv = d->fix.epv;
      out->alt_msl = d->fix.altMSL;
      out->alt_hae = d->fix.altHAE;
    }
    snprintf(out->device, sizeof out->device, "%s", d->dev.path);
  } else if (has_class(gps->line, "DEVICES")) {
    out->kind = LOCEMU_MESSAGE_DEVICES;
    out->device_count = d->devices.ndevices;
  } else if (has_class(gps->line, "DEVICE")) {
    out->kind = LOCEMU_MESSAGE_DEVICE;
    out->device_activated = d->dev.activated.tv_sec != 0 || d->dev.activated.tv_nsec != 0;
    snprintf(out->device, sizeof out->device, "%s", d->dev.path);
  } else if (has_class(gps->line, "ERROR")) {
    out->kind = LOCEMU_MESSAGE_ERROR;
    snprintf(out->message, sizeof out->message, "%s", d->error);
  }
  return 0;
}

void locemu_gps_close(locemu_gps *gps) {
  if (gps == NULL) return;
  gps_close(&gps->data);
  free(gps);
}

const char *locemu_gps_errstr(int error) { return gps_errstr(error); }
