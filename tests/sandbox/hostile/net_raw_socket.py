"""Hostile: open a raw socket (ICMP, packet capture). Contained: no CAP_NET_RAW -> PermissionError."""
# expect: error PermissionError
# timeout: 10
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
print("ESCAPED: raw socket opened", s)
