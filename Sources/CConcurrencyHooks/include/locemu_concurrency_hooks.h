// The Swift concurrency runtime's hook variables, reached by reference: the linker resolves
// them against libswift_Concurrency whether that is a shared library or, in an executable built
// with --static-swift-stdlib, an archive linked in. (Looking them up with dlsym would find them
// only in the shared library: a static executable exports none of its symbols.)
#ifndef LOCEMU_CONCURRENCY_HOOKS_H
#define LOCEMU_CONCURRENCY_HOOKS_H

/// The hooks the virtual clock installs, as the runtime names them.
typedef enum {
  LOCEMU_HOOK_ENQUEUE_GLOBAL = 0,        ///< swift_task_enqueueGlobal_hook
  LOCEMU_HOOK_ENQUEUE_MAIN_EXECUTOR = 1, ///< swift_task_enqueueMainExecutor_hook
  LOCEMU_HOOK_GET_MAIN_EXECUTOR = 2,     ///< swift_task_getMainExecutor_hook
  LOCEMU_HOOK_IS_MAIN_EXECUTOR = 3,      ///< swift_task_isMainExecutor_hook
} locemu_concurrency_hook;

/// The address of `hook`'s variable: a pointer to the runtime's (nullable) function pointer,
/// which the caller stores its hook into.
void *_Nonnull locemu_concurrency_hook_address(locemu_concurrency_hook hook);

#endif
