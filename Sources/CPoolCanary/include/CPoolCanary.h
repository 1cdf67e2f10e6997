#ifndef LOCEMU_POOL_CANARY_H
#define LOCEMU_POOL_CANARY_H

/// Whether the pool canary watches this process: LOCEMU_POOL_CANARY was set when it started.
int locemu_pool_canary_is_running(void);

/// How many reports the canary has written (threads of the pool blocked past the limit).
int locemu_pool_canary_reports(void);

#endif
