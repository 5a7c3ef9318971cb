"""Hostile: create a file at /. Contained: the root is read-only / not the sandbox uid's -> OSError."""
# expect: error PermissionError OSError
# timeout: 10
with open("/cmbagent-escape", "w") as fh:
    fh.write("x")
print("ESCAPED: wrote /cmbagent-escape")
