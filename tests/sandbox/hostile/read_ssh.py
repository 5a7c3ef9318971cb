"""Hostile: read SSH keys of the user running cmbagent. Contained: ~/.ssh is not in the sandbox."""
# expect: error FileNotFoundError PermissionError
# timeout: 10
import os

for folder in [os.path.expanduser("~/.ssh"), "/root/.ssh", "/home"]:
    if os.path.isdir(folder):
        for name in os.listdir(folder):
            print("ESCAPED: listed", folder, name)
print(open("/root/.ssh/id_rsa").read())
