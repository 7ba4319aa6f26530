"""The service's connection cap and body timeout, seen from its clients.

    connection_limits.py PORT SERVER_PID

Run against `remindc serve --max-connections 3 --body-timeout 1`. Prints one line per case:
- "body SECONDS STATUS": a body announced as 1 000 bytes and sent a byte every 0.2 s; when
  the service answered and with what status line.
- "cap DESCRIPTORS_BEFORE DESCRIPTORS_WITH_40 ANSWERED SECONDS CLOSED": 40 connections
  stalled in their request head, each taking the place of one stalled longer; the
  service's open descriptors before and with all 40 connected; whether a request made then
  was answered, and how fast; how many stalled connections the service closed.
- "busy ANSWERED SECONDS STATUS STATUS STATUS STATUS": four requests whose bodies never come
  fill the cap and the place past it; whether a fifth was answered, how long it waited, and
  the four status lines.
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


def probe(timeout):
    """A health check on a new connection: whether it was answered 200 within `timeout`
    seconds, and after how long."""
    connection = socket.create_connection(("127.0.0.1", port))
    start = time.time()
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
    connection.settimeout(timeout)
    try:
        answered = connection.recv(100).startswith(b"HTTP/1.1 200")
    except socket.timeout:
        answered = False
    seconds = round(time.time() - start, 3)
    connection.close()
    return answered, seconds


def cap():
    before = descriptors()
    stalled = []
    for _ in range(40):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: te")
        stalled.append(connection)
    # Those past the cap wait in the listen queue, and are each closed in turn once idle
    # for a quarter of a second.
    time.sleep(4)
    during = descriptors()
    # A new client takes the place of the connection stalled longest.
    answered, seconds = probe(5)
    # Every stalled connection but the last few accepted was closed by the service.
    closed = 0
    for connection in stalled:
        connection.settimeout(0.05)
        try:
            if connection.recv(100) == b"":
                closed += 1
        except socket.timeout:
            pass
        except OSError:
            closed += 1
        connection.close()
    return before, during, answered, seconds, closed


def busy():
    """Four connections with a request under way (a head, and a body still to come: the
    cap, and the one past it that would take an idle one's place) are not closed to make
    room: a fifth waits until their 408s free the cap."""
    busy = []
    for _ in range(4):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"POST /v1/check HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n")
        busy.append(connection)
    time.sleep(0.3)
    answered, seconds = probe(10)
    statuses = []
    for connection in busy:
        connection.settimeout(5)
        try:
            statuses.append(connection.recv(100).split(b"\r\n")[0].decode().replace(" ", "_"))
        except (socket.timeout, OSError):
            statuses.append("none")
        connection.close()
    return answered, seconds, *statuses


print("body", *trickled_body())
print("cap", *cap())
print("busy", *busy())
