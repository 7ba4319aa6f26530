"""Runs `remindc batch` as the map stage of Apache Spark and compares the results with a
direct run of the same jobs.

    spark_batch.py REMINDC JOBS.ndjson

Spark runs on local[2] (both cores), reads the NDJSON jobs into four partitions, and pipes
each partition through `remindc batch` (RDD.pipe: one process per partition, jobs on its
standard input, results on its standard output). Partitions keep the file's order, and
batch keeps its input's, so the collected results must equal the direct run's line for
line. On a cluster the same job runs with the binary shipped to the executors
(spark-submit --files remindc, then RDD.pipe("./remindc batch")). Prints a summary and
exits 1 on any difference.
"""
import subprocess
import sys

from pyspark.sql import SparkSession


def main():
    remindc, jobs = sys.argv[1:3]
    spark = (SparkSession.builder.master("local[2]").appName("remindc-batch")
             .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        piped = spark.sparkContext.textFile(jobs, minPartitions=4).pipe(f"{remindc} batch --jobs 1").collect()
    finally:
        spark.stop()
    direct = subprocess.run([remindc, "batch", jobs], capture_output=True, check=True).stdout.decode("utf-8").splitlines()
    problems = []
    if len(piped) != len(direct):
        problems.append(f"Spark gave {len(piped)} results, the direct run {len(direct)}")
    for number, (through_spark, alone) in enumerate(zip(piped, direct), start=1):
        if through_spark != alone:
            problems.append(f"result {number} differs")
    for problem in problems[:10]:
        print(problem)
    print(f"spark: {len(piped)} results through local[2], {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
