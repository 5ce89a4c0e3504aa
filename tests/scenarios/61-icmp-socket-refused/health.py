"""A health check that pings the loopback address with an ICMP echo
socket, the kind ping makes without privilege."""
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP)
s.settimeout(1)
s.sendto(b"\x08\x00\xf7\xff\x00\x00\x00\x00", ("127.0.0.1", 0))
s.recvfrom(64)
print("alive")
