// The submodule os.lock: its declarations are in the Swift module os.
