"""Hostile: send a UDP datagram to a public DNS server. Contained: no route -> OSError (network unreachable)."""
# expect: error OSError
# timeout: 10
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b"\x00" * 12, ("8.8.8.8", 53))
print("ESCAPED: datagram sent to 8.8.8.8")
