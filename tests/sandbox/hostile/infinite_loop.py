"""Hostile: spin forever. Contained: the wall-clock timeout interrupts the cell (status timeout)."""
# expect: timeout KeyboardInterrupt
# timeout: 2
while True:
    pass
