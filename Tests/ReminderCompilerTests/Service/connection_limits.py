"""The service's connection cap and body timeout, seen from its clients.

    connection_limits.py PORT SERVER_PID

Run against `remindc serve --max-connections 3 --body-timeout 1`. Prints one line per case:
- "body SECONDS STATUS": a body announced as 1 000 bytes and sent a byte every 0.2 s; when
  the service answered and with what status line.
- "cap DESCRIPTORS_BEFORE DESCRIPTORS_WITH_40 WAITED ANSWERED": three connections stalled in
  their request head fill the cap, 37 more connect; the service's open descriptors before
  and with all 40 connected; whether a request made then waited (no answer within 1 s);
  whether it was answered once the stalled ones were closed.
"""
import os
import socket
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])


def descriptors():
    return len(os.listdir(f"/proc/{pid}/fd"))


def trickled_body():
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"POST /v1/check HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n")
    connection.settimeout(0.2)
    start = time.time()
    for _ in range(100):
        try:
            connection.send(b" ")
            answer = connection.recv(1000)
            if answer:
                return round(time.time() - start, 2), answer.split(b"\r\n")[0].decode()
        except socket.timeout:
            pass
        except OSError:
            return round(time.time() - start, 2), "closed without an answer"
    return None, "no answer"


def cap():
    before = descriptors()
    stalled = []
    for _ in range(40):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: te")
        stalled.append(connection)
    time.sleep(0.5)
    during = descriptors()
    probe = socket.create_connection(("127.0.0.1", port))
    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
    probe.settimeout(1)
    try:
        waited = probe.recv(100) == b""
    except socket.timeout:
        waited = True
    for connection in stalled:
        connection.close()
    probe.settimeout(10)
    try:
        answered = probe.recv(100).startswith(b"HTTP/1.1 200")
    except socket.timeout:
        answered = False
    return before, during, waited, answered


print("body", *trickled_body())
print("cap", *cap())
