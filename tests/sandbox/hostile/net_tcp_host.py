"""Hostile: TCP to a server listening on the host's 127.0.0.1. Contained: the sandbox's loopback is its own.

The test harness defines HOST_PORT (a server it started); standalone, common local ports are tried.
"""
# expect: error ConnectionRefusedError OSError
# timeout: 20
import socket

ports = [globals()["HOST_PORT"]] if "HOST_PORT" in globals() else [22, 80, 443, 5432, 6379, 8000, 8080, 8888]
last = None
for port in ports:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            print("ESCAPED: connected to host port", port, s.recv(100))
            break
    except OSError as exc:
        last = exc
else:
    raise last
