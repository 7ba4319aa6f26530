"""Drives `remindc batch` as a producer that waits for each result before it sends the
next job, and so checks that results stream out as jobs complete.

    batch_streaming.py REMINDC WORKERS JOBS...

WORKERS is batch's --jobs (1 is the form of the Spark recipe). Each argument after it is
one job line. The script writes a line, then waits up to
30 s for one result line on batch's standard output; only then does it write the next.
A batch that held its results until more input (or the end of input) came would never
answer. Prints one line per result received and "streamed N of N" at the end; exits 1 on
a result that does not come.
"""
import select
import subprocess
import sys


def main():
    remindc, workers, jobs = sys.argv[1], sys.argv[2], sys.argv[3:]
    batch = subprocess.Popen([remindc, "batch", "--jobs", workers], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    received = 0
    try:
        for job in jobs:
            batch.stdin.write(job.encode("utf-8") + b"\n")
            batch.stdin.flush()
            ready, _, _ = select.select([batch.stdout], [], [], 30)
            if not ready:
                print(f"no result for job {received + 1} within 30 s, with its line sent and the input still open")
                sys.exit(1)
            line = batch.stdout.readline().decode("utf-8")
            print("result:", line[:60].strip())
            received += 1
        batch.stdin.close()
        rest = batch.stdout.read()
        if rest.strip():
            print("unexpected output after the last job:", rest[:200])
            sys.exit(1)
    finally:
        if batch.poll() is None:
            batch.kill()
        batch.wait()
    print(f"streamed {received} of {len(jobs)}")


if __name__ == "__main__":
    main()
