#!/usr/bin/env python3
"""
Slow-reader clients for tests: opens N HTTP requests (POST, empty body) that read their response head
and then nothing more, each with a tiny receive buffer so the kernel takes little of what the server
sends. Prints "ready" once every request was answered 200; holds the connections until stdin closes.

usage: stalled_readers.py HOST PORT PATH N
"""
import socket
import sys

host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
held = []
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, port))
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Length: 0\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        b = s.recv(1)  # one byte at a time: nothing past the head is taken
        if not b:
            sys.exit("connection closed before the response head")
        head += b
    if not head.startswith(b"HTTP/1.1 200"):
        sys.exit("not answered 200: " + head.decode(errors="replace"))
    held.append(s)
print("ready", flush=True)
sys.stdin.read()
