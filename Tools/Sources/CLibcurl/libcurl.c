#include "locemu_libcurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The codes the header above names, checked against libcurl's own.
_Static_assert(CURLE_UNSUPPORTED_PROTOCOL == locemu_libcurl_unsupported_protocol && CURLE_URL_MALFORMAT == locemu_libcurl_url_malformed &&
                   CURLE_COULDNT_RESOLVE_HOST == locemu_libcurl_could_not_resolve_host &&
                   CURLE_COULDNT_CONNECT == locemu_libcurl_could_not_connect &&
                   CURLE_WEIRD_SERVER_REPLY == locemu_libcurl_weird_server_reply &&
                   CURLE_OPERATION_TIMEDOUT == locemu_libcurl_timed_out &&
                   CURLE_ABORTED_BY_CALLBACK == locemu_libcurl_aborted_by_callback &&
                   CURLE_GOT_NOTHING == locemu_libcurl_got_nothing && CURLE_SEND_ERROR == locemu_libcurl_send_error &&
                   CURLE_RECV_ERROR == locemu_libcurl_receive_error,
               "libcurl's codes as the header names them");

// The functions used, found in the library once it is loaded.
static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_perform)(CURL *);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
} curl;

static const char *load_failure;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

// The largest body taken (a backend that sends more is broken).
static const size_t body_limit = (size_t)1 << 30;

static void load(void) {
  // The OpenSSL build (Debian's libcurl4), else the GnuTLS one (libcurl3-gnutls).
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    load_failure = "libcurl is not installed (Debian: apt install libcurl4)";
    return;
  }
#define FIND(member, name)                                         \
  if (!(*(void **)&curl.member = dlsym(library, name))) {          \
    load_failure = "the installed libcurl lacks " name;           \
    return;                                                         \
  }
  FIND(global_init, "curl_global_init")
  FIND(easy_init, "curl_easy_init")
  FIND(easy_setopt, "curl_easy_setopt")
  FIND(easy_perform, "curl_easy_perform")
  FIND(easy_getinfo, "curl_easy_getinfo")
  FIND(easy_cleanup, "curl_easy_cleanup")
  FIND(easy_strerror, "curl_easy_strerror")
  FIND(slist_append, "curl_slist_append")
  FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
  // Once, before any handle, as libcurl asks (pthread_once makes it so).
  if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) load_failure = "libcurl would not start";
}

typedef struct {
  locemu_libcurl_body *body;
  int too_large;
} sink;

static size_t take(char *data, size_t size, size_t count, void *context) {
  sink *s = context;
  size_t n = size * count;
  if (s->body->count + n > body_limit) {
    s->too_large = 1;
    return 0;  // ends the transfer with CURLE_WRITE_ERROR
  }
  unsigned char *grown = realloc(s->body->bytes, s->body->count + n + 1);
  if (!grown) return 0;
  memcpy(grown + s->body->count, data, n);
  s->body->bytes = grown;
  s->body->count += n;
  return n;
}

static int progress(void *cancelled, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total,
                    curl_off_t up_now) {
  (void)down_total, (void)down_now, (void)up_total, (void)up_now;
  return cancelled && __atomic_load_n((const int *)cancelled, __ATOMIC_ACQUIRE) != 0;
}

int locemu_libcurl_get(const char *url, const char *const *headers, size_t header_count, long timeout_ms,
                       const int *cancelled, long *status, locemu_libcurl_body *body, int *code, char *message,
                       size_t message_size) {
  body->bytes = NULL;
  body->count = 0;
  *status = 0;
  *code = -1;
  pthread_once(&loaded, load);
  if (load_failure) {
    snprintf(message, message_size, "%s", load_failure);
    return -1;
  }
  CURL *handle = curl.easy_init();
  if (!handle) {
    snprintf(message, message_size, "libcurl could not make a request");
    return -1;
  }
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
  char reason[CURL_ERROR_SIZE] = {0};
  sink s = {body, 0};
  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for timeouts: threads
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
  curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 10L);
  curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");  // every encoding it decodes
#if LIBCURL_VERSION_NUM >= 0x075500
  curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, reason);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, take);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &s);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)cancelled);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  CURLcode result = curl.easy_perform(handle);
  if (result == CURLE_OK) curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, status);
  curl.easy_cleanup(handle);
  curl.slist_free_all(list);
  if (result == CURLE_OK) return 0;
  *code = (int)result;
  if (result == CURLE_ABORTED_BY_CALLBACK) {
    snprintf(message, message_size, "cancelled");
  } else if (s.too_large) {
    snprintf(message, message_size, "an answer larger than %zu bytes", body_limit);
  } else {
    snprintf(message, message_size, "%s", reason[0] ? reason : curl.easy_strerror(result));
  }
  locemu_libcurl_free_body(body);
  return -1;
}

void locemu_libcurl_cancel(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

void locemu_libcurl_free_body(locemu_libcurl_body *body) {
  free(body->bytes);
  body->bytes = NULL;
  body->count = 0;
}
