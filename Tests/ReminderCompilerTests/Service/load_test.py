"""Loads `remindc serve` with normal, slow and stalled clients at once and measures how
/healthz answers meanwhile.

    load_test.py PORT JOB.json SECONDS

For SECONDS: four clients post the job to /v1/plan one request after another (each
answer must be 200 with "ok":true and a plan); three send a body a byte every 0.3 s
(the service should answer them 408 once its body timeout passes, then they start
again); ten open connections and stall in their request heads; and a probe asks
/healthz every 50 ms on a new connection. Prints:
    normal ANSWERED FAILED
    slow ANSWERS_408
    healthz COUNT P50 P95 MAX   (seconds)
"""
import http.client
import json
import socket
import sys
import threading
import time

port, job_path, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
job = open(job_path, "rb").read()
deadline = time.time() + seconds
lock = threading.Lock()
counts = {"answered": 0, "failed": 0, "slow408": 0}
latencies = []


def normal():
    while time.time() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("POST", "/v1/plan", body=job, headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            body = answer.read()
            good = answer.status == 200 and json.loads(body).get("ok") is True and "plan" in json.loads(body)
            connection.close()
        except Exception:
            good = False
        with lock:
            counts["answered" if good else "failed"] += 1


def slow():
    while time.time() < deadline:
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=1)
            connection.sendall(b"POST /v1/plan HTTP/1.1\r\nHost: load\r\nContent-Length: 100000\r\n\r\n")
            connection.settimeout(0.3)
            while time.time() < deadline:
                try:
                    connection.send(b" ")
                    answer = connection.recv(100)
                    if answer.startswith(b"HTTP/1.1 408"):
                        with lock:
                            counts["slow408"] += 1
                    if answer:
                        break
                except socket.timeout:
                    pass
            connection.close()
        except OSError:
            time.sleep(0.1)


def probe():
    while time.time() < deadline:
        start = time.time()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            ok = connection.getresponse().read() == b"ok\n"
            connection.close()
        except Exception:
            ok = False
        elapsed = time.time() - start
        with lock:
            latencies.append(elapsed if ok else float("inf"))
        time.sleep(0.05)


stalled = []
for _ in range(10):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: lo")
    stalled.append(connection)
threads = [threading.Thread(target=normal) for _ in range(4)] + [threading.Thread(target=slow) for _ in range(3)]
threads.append(threading.Thread(target=probe))
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
for connection in stalled:
    connection.close()
ordered = sorted(latencies)


def percentile(fraction):
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("inf")


print("normal", counts["answered"], counts["failed"])
print("slow", counts["slow408"])
print("healthz", len(ordered), round(percentile(0.5), 4), round(percentile(0.95), 4), round(ordered[-1], 4) if ordered else "inf")
