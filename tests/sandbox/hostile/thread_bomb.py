"""Hostile: thread bomb. Contained: threads count against RLIMIT_NPROC -> RuntimeError (can't start thread)."""
# expect: error RuntimeError
# timeout: 20
import threading

stop = threading.Event()
threads = []
try:
    while len(threads) < 100_000:
        t = threading.Thread(target=stop.wait, daemon=True)
        t.start()
        threads.append(t)
    print("ESCAPED: started", len(threads), "threads")
finally:
    stop.set()
    for t in threads:
        t.join()
