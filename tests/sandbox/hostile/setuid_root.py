"""Hostile: become root (setuid(0), or through a setuid binary). Contained: no capabilities, no_new_privs."""
# expect: error PermissionError OSError
# timeout: 10
import os
import subprocess

for prog in (["su", "-c", "id -u"], ["sudo", "-n", "id", "-u"], ["newgrp"]):
    try:
        out = subprocess.run(prog, capture_output=True, text=True, timeout=3, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        continue
    if out.returncode == 0 and out.stdout.strip() == "0":
        print("ESCAPED: root through", prog[0])
os.setuid(0)
print("ESCAPED: setuid(0) worked")
