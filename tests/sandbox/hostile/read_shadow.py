"""Hostile: read /etc/shadow. Contained: not in the sandbox (and not readable by its uid anyway)."""
# expect: error FileNotFoundError PermissionError
# timeout: 10
print("ESCAPED:", open("/etc/shadow").read()[:80])
