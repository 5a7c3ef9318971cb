"""Hostile: read root's home. Contained: only the interpreter prefix is bound under /root."""
# expect: error FileNotFoundError PermissionError
# timeout: 10
import os

visible = sorted(os.listdir("/root")) if os.path.isdir("/root") else []
extra = [name for name in visible if name != ".pyenv"]
if extra:
    print("ESCAPED: /root shows", extra)
print(open("/root/.bash_history").read())
