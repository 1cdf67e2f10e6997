// libcurl, loaded when the first request is made rather than when the program starts.
//
// locemu links no libcurl: Debian's brings 35 libraries (TLS, Kerberos, LDAP, SSH, IDN...) that
// the loader maps and binds before main, about 8 ms of every command's start. The one request
// locemu makes to a server it does not run (announcements from a backend, http:// or
// https://) loads it then, with dlopen.
#ifndef LOCEMU_LIBCURL_H
#define LOCEMU_LIBCURL_H

#include <stddef.h>

/// An answer's body, allocated with malloc; released by locemu_libcurl_free_body.
typedef struct {
  unsigned char *bytes;
  size_t count;
} locemu_libcurl_body;

/// GETs `url` (http:// or https://, redirects followed) with the `header_count` header lines
/// in `headers` ("Name: value"), giving up after `timeout_ms`, or as soon as `*cancelled` is
/// nonzero (set it with locemu_libcurl_cancel from another thread). Returns 0 with the HTTP
/// status in `*status` and the body in `*body`; or -1 with libcurl's code (a CURLcode, or -1
/// when libcurl could not be loaded) in `*code` and a one-line reason in `message`.
int locemu_libcurl_get(const char *url, const char *const *headers, size_t header_count, long timeout_ms,
                       const int *cancelled, long *status, locemu_libcurl_body *body, int *code, char *message,
                       size_t message_size);

/// libcurl's codes that a caller tells apart (CURLcode's values, which are part of its ABI).
enum {
  locemu_libcurl_unsupported_protocol = 1,
  locemu_libcurl_url_malformed = 3,
  locemu_libcurl_could_not_resolve_host = 6,
  locemu_libcurl_could_not_connect = 7,
  locemu_libcurl_weird_server_reply = 8,
  locemu_libcurl_timed_out = 28,
  locemu_libcurl_aborted_by_callback = 42,
  locemu_libcurl_got_nothing = 52,
  locemu_libcurl_send_error = 55,
  locemu_libcurl_receive_error = 56,
};

/// Sets `*flag` (atomically): a request given it as `cancelled` stops at its next progress call.
void locemu_libcurl_cancel(int *flag);

void locemu_libcurl_free_body(locemu_libcurl_body *body);

#endif
