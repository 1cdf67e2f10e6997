// The C side of the CoreLocation module map: nothing to compile; see include/module.modulemap.
