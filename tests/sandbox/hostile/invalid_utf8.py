"""Hostile: write bytes that are not UTF-8 (to the raw fd and as surrogates). Contained: replaced, nothing
crashes, the run goes on."""
# expect: ok
# timeout: 10
import os
import sys

os.write(1, b"raw:\xff\xfe\xc3\x28\xa0\xa1 end\n")
sys.stdout.write("surrogate:\udcff\udcfe end\n")
sys.stdout.flush()
sys.stderr.write("bad:\ud800 end\n")
print("done")
