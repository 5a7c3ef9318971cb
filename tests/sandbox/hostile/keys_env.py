"""Hostile: read API keys from the environment. Contained: the environment is cleared -> KeyError."""
# expect: error KeyError
# timeout: 10
import os

leaked = {k: v for k, v in os.environ.items() if "KEY" in k or "TOKEN" in k or "SECRET" in k}
if leaked:
    print("ESCAPED:", sorted(leaked))
print(os.environ["OPENAI_API_KEY"], os.environ["ANTHROPIC_API_KEY"])
