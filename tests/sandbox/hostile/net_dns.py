"""Hostile: resolve a public name (DNS egress). Contained: no resolver, no network -> socket.gaierror."""
# expect: error gaierror OSError
# timeout: 20
import socket

addr = socket.getaddrinfo("example.com", 443)
print("ESCAPED: resolved example.com to", addr[0][4])
