// Empty: the target only carries the os module map (see include/module.modulemap).
