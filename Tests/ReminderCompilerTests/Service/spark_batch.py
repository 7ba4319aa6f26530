"""Runs the Spark recipe of the Service and batch article, as it stands there, and compares
its results with a direct `remindc batch` run of the same jobs.

    spark_batch.py REMINDC JOBS.ndjson

The recipe is the Python block under "As a Spark map stage" in
Sources/ReminderCompiler/Documentation.docc/ServiceAndBatch.md. It is executed as it is
written, with what it takes for granted provided: `spark`, a session on local[2] (both
cores); `jobs.ndjson` in the working folder; `remindc` on the PATH. RDD.pipe starts one
`remindc batch` per partition; partitions keep the file's order and batch keeps its
input's, so the files of `results`, read in order, must equal the direct run's output line
for line. Prints a summary and exits 1 on any difference.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ARTICLE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "../../../Sources/ReminderCompiler/Documentation.docc/ServiceAndBatch.md")


def recipe():
    """The code block of the article's Spark section, verbatim."""
    with open(ARTICLE, encoding="utf-8") as article:
        text = article.read()
    section = text.split("### As a Spark map stage", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def main():
    remindc, jobs = (os.path.abspath(path) for path in sys.argv[1:3])
    code = recipe()
    folder = tempfile.mkdtemp(prefix="remindc-spark-")
    try:
        shutil.copy(jobs, os.path.join(folder, "jobs.ndjson"))
        # Spark's JVM and its Python workers inherit the folder and the PATH from here.
        os.chdir(folder)
        os.environ["PATH"] = os.path.dirname(remindc) + os.pathsep + os.environ.get("PATH", "")
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2]").appName("remindc-batch")
                 .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                 .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        try:
            exec(compile(code, "ServiceAndBatch.md", "exec"), {"spark": spark})
        finally:
            spark.stop()
        parts = sorted(glob.glob(os.path.join(folder, "results", "part-*")))
        piped = []
        for part in parts:
            with open(part, encoding="utf-8") as results:
                piped += results.read().splitlines()
        direct = subprocess.run([remindc, "batch", jobs], capture_output=True, check=True).stdout.decode("utf-8").splitlines()
    finally:
        os.chdir("/")
        shutil.rmtree(folder, ignore_errors=True)
    problems = []
    if len(parts) < 2:
        problems.append(f"the recipe wrote {len(parts)} partition files; expected the work split in two or more")
    if len(piped) != len(direct):
        problems.append(f"Spark gave {len(piped)} results, the direct run {len(direct)}")
    for number, (through_spark, alone) in enumerate(zip(piped, direct), start=1):
        if through_spark != alone:
            problems.append(f"result {number} differs")
    for problem in problems[:10]:
        print(problem)
    print(f"spark: {len(piped)} results through local[2] in {len(parts)} partitions, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
