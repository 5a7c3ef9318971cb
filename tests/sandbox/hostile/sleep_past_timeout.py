"""Hostile: sleep far past the cell's limit. Contained: interrupted at the timeout (status timeout)."""
# expect: timeout KeyboardInterrupt
# timeout: 2
import time

time.sleep(3600)
