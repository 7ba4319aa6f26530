"""Loads `remindc serve` with normal, slow and stalled clients at once and measures how
/healthz answers meanwhile.

    load_test.py PORT JOB.json SECONDS CONTROL_PORT

For SECONDS: four clients post the job to /v1/plan one request after another (each
answer must be 200 with "ok":true and a plan); three send a body a byte every 0.3 s
(the service should answer them 408 once its body timeout passes, then they start
again); ten open connections and stall in their request heads; and a probe asks
/healthz every 50 ms on a new connection, of the loaded service and, right after, of an
idle one on CONTROL_PORT. Both answers wait alike for the machine (its cores shared with
whatever else runs), so the loaded answer's time less the idle one's is the delay the
load itself caused. Prints:
    normal ANSWERED FAILED
    slow ANSWERS_408
    healthz COUNT P50 P95 MAX   (seconds, the loaded service)
    control COUNT P50 P95 MAX   (the idle one)
    excess COUNT P50 P95 MAX    (each loaded probe's time less its idle pair's)
"""
import http.client
import json
import socket
import sys
import threading
import time

port, job_path, seconds, control_port = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
job = open(job_path, "rb").read()
deadline = time.time() + seconds
lock = threading.Lock()
counts = {"answered": 0, "failed": 0, "slow408": 0}
latencies = []
control_latencies = []


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


def healthz(on_port):
    """The seconds /healthz took on a new connection; infinite when it failed."""
    start = time.time()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", on_port, timeout=5)
        connection.request("GET", "/healthz")
        ok = connection.getresponse().read() == b"ok\n"
        connection.close()
    except Exception:
        ok = False
    elapsed = time.time() - start
    return elapsed if ok else float("inf")


def probe():
    while time.time() < deadline:
        loaded = healthz(port)
        idle = healthz(control_port)
        with lock:
            latencies.append(loaded)
            control_latencies.append(idle)
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


def summary(values):
    """COUNT P50 P95 MAX of `values`, in seconds."""
    ordered = sorted(values)
    if not ordered:
        return "0 inf inf inf"

    def percentile(fraction):
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return f"{len(ordered)} {round(percentile(0.5), 4)} {round(percentile(0.95), 4)} {round(ordered[-1], 4)}"


print("normal", counts["answered"], counts["failed"])
print("slow", counts["slow408"])
print("healthz", summary(latencies))
print("control", summary(control_latencies))
# A failed probe of either service counts as an infinite excess.
print("excess", summary([loaded - idle if max(loaded, idle) < float("inf") else float("inf")
                         for loaded, idle in zip(latencies, control_latencies)]))
