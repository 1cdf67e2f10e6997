// The submodule os.signpost: its declarations are in the Swift module os.
