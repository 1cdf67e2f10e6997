print("source-benchmark: not yet")
