"""Hostile: write into /usr. Contained: /usr is a read-only bind -> OSError (read-only file system)."""
# expect: error PermissionError OSError
# timeout: 10
with open("/usr/lib/cmbagent-escape", "w") as fh:
    fh.write("x")
print("ESCAPED: wrote /usr/lib/cmbagent-escape")
