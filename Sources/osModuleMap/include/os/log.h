// The submodule os.log: its declarations are in the Swift module os.
