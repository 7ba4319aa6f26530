"""How `remindc serve` shuts down on SIGTERM, seen from its clients.

    shutdown_drain.py REMINDC

Prints one line per case:
- "drain STATUS RECEIVED EXPECTED WHOLE NEW": a 26 MB calendar read slowly, SIGTERM sent
  after its first megabyte; the service's exit status, the body bytes received, the
  Content-Length, whether the body ends with END:VCALENDAR, and what a new client that
  asks /healthz 0.3 s after the signal, while the calendar is still being sent,
  meets: "refused" (the service stopped listening), "closed" (it took the connection but
  answered nothing) or "answered".
- "cut STATUS SECONDS": the same with --grace-period 1 and a reader too slow for it.
- "stalled-headers STATUS SECONDS" and "stalled-body STATUS SECONDS": a client stalled in
  its request head or body, with --grace-period 2; how long the service took to exit.
- "abandoned STATUS HEALTH": a client that reads the calendar's first megabyte and goes
  away, a second before SIGTERM; the service's exit status, and whether /healthz was
  answered between the two. An answer its client gave up is not one the shutdown cut.
"""
import json
import signal
import socket
import struct
import subprocess
import sys
import time

REMINDC = sys.argv[1]


def calendar_job():
    reminders = "".join(
        f"<dict><key>id</key><string>r{index}</string><key>title</key><string>Reminder {index}</string>"
        "<key>schedule</key><dict><key>frequency</key><string>daily</string><key>everyMinutes</key><integer>5</integer>"
        "<key>window</key><dict><key>from</key><string>00:00</string><key>until</key><string>23:55</string></dict></dict></dict>"
        for index in range(4))
    config = ('<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>'
              "<key>formatVersion</key><integer>1</integer><key>timeZone</key><string>Europe/Berlin</string>"
              "<key>horizonDays</key><integer>80</integer><key>pendingLimit</key><integer>0</integer>"
              "<key>calendarScope</key><string>window</string>"
              f"<key>reminders</key><array>{reminders}</array></dict></plist>")
    return json.dumps({"config": config, "now": "2026-11-22T08:00:00Z"}).encode("utf-8")


def start(*options):
    # A time limit well above what a loaded machine needs to compute the calendar.
    server = subprocess.Popen([REMINDC, "serve", "--port", "0", "--time-limit", "300", *options],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    port = int(server.stdout.readline().decode("utf-8").rsplit(":", 1)[1])
    return server, port


def exit_status(server, signalled_at):
    try:
        status = server.wait(timeout=40)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        status = "running"
    return status, round(time.time() - signalled_at, 2)


def new_client(port):
    """What a client that connects now and asks /healthz meets."""
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    except ConnectionRefusedError:
        return "refused"
    try:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        return "answered" if connection.recv(100).startswith(b"HTTP/1.1") else "closed"
    except OSError:
        return "closed"
    finally:
        connection.close()


def read_calendar_slowly(options, pause):
    server, port = start(*options)
    body = calendar_job()
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    connection.sendall(b"POST /v1/ics HTTP/1.1\r\nHost: test\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    received = bytearray()
    signalled_at = None
    newcomer = "not tried"
    while True:
        part = connection.recv(65536)
        if not part:
            break
        received += part
        if signalled_at is None and len(received) > 1_000_000:
            server.send_signal(signal.SIGTERM)
            signalled_at = time.time()
            # The calendar waits meanwhile: this client reads nothing more of it.
            time.sleep(0.3)
            newcomer = new_client(port)
        time.sleep(pause)
    if signalled_at is None:
        # The answer was shorter than expected: stop the service all the same.
        server.send_signal(signal.SIGTERM)
        signalled_at = time.time()
    status, seconds = exit_status(server, signalled_at)
    head, _, content = bytes(received).partition(b"\r\n\r\n")
    expected = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), -1)
    return status, seconds, len(content), expected, content.endswith(b"END:VCALENDAR\r\n"), newcomer


def stalled(request_start):
    server, port = start("--grace-period", "2")
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(request_start)
    time.sleep(0.5)
    server.send_signal(signal.SIGTERM)
    return exit_status(server, time.time())


def abandoned():
    server, port = start()
    body = calendar_job()
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    connection.sendall(b"POST /v1/ics HTTP/1.1\r\nHost: test\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    received = 0
    while received < 1_000_000:
        part = connection.recv(65536)
        if not part:
            break
        received += len(part)
    # Gone at once, unread bytes and all (a reset, not a polite close).
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()
    time.sleep(1)
    health = new_client(port)
    server.send_signal(signal.SIGTERM)
    status, _ = exit_status(server, time.time())
    return status, health


status, _, received, expected, whole, newcomer = read_calendar_slowly([], 0.001)
print("drain", status, received, expected, whole, newcomer)
status, seconds, _, _, _, _ = read_calendar_slowly(["--grace-period", "1"], 0.01)
print("cut", status, seconds)
print("stalled-headers", *stalled(b"POST /v1/plan HTTP/1.1\r\nHost: test\r\nContent-Le"))
print("stalled-body", *stalled(b"POST /v1/plan HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n{\"con"))
print("abandoned", *abandoned())
