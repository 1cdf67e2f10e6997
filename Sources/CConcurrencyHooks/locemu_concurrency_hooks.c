#include "locemu_concurrency_hooks.h"

#include <stddef.h>

// Declared by their names alone: each is a function pointer whose Swift calling convention C
// cannot spell, and only the variables' addresses are taken here. The runtime defines them
// (swift/Runtime/Concurrency.h, SWIFT_EXPORT_FROM(swift_Concurrency)).
extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueMainExecutor_hook;
extern void *swift_task_getMainExecutor_hook;
extern void *swift_task_isMainExecutor_hook;

void *locemu_concurrency_hook_address(locemu_concurrency_hook hook) {
  switch (hook) {
  case LOCEMU_HOOK_ENQUEUE_GLOBAL:
    return &swift_task_enqueueGlobal_hook;
  case LOCEMU_HOOK_ENQUEUE_MAIN_EXECUTOR:
    return &swift_task_enqueueMainExecutor_hook;
  case LOCEMU_HOOK_GET_MAIN_EXECUTOR:
    return &swift_task_getMainExecutor_hook;
  case LOCEMU_HOOK_IS_MAIN_EXECUTOR:
    return &swift_task_isMainExecutor_hook;
  }
  return &swift_task_enqueueGlobal_hook;
}
