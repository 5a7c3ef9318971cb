"""Hostile: allocate (and touch) memory without end. Contained: RLIMIT_AS -> MemoryError, memory freed."""
# expect: error MemoryError
# timeout: 60
blocks = []
while len(blocks) < 100_000:
    blocks.append(b"x" * (64 * 1024 * 1024))
print("ESCAPED: allocated", len(blocks) * 64, "MiB")
