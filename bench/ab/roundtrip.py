"""One client thread's round trip: N sequential calls of a cheap procedure, the median
of the last 7/8 (the first eighth warms up). Run it under two Pythons with two versions
of kith's client installed, alternately, for a before/after of the client:

  for i in 1 2 3 4; do old/bin/python bench/ab/roundtrip.py URL; new/bin/python bench/ab/roundtrip.py URL; done

usage: roundtrip.py URL [--calls 4000] [--procedure s4.point_lookup] [--person 933]
"""
import argparse
import statistics
import time

import kith


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("--calls", type=int, default=4000)
    ap.add_argument("--procedure", default="s4.point_lookup")
    ap.add_argument("--person", type=int, default=933)
    a = ap.parse_args()
    client = kith.connect(a.url)
    times = []
    for _ in range(a.calls):
        t0 = time.perf_counter()
        client.call_with(a.procedure, {"personId": a.person})
        times.append(time.perf_counter() - t0)
    kept = times[a.calls // 8:]
    print(f"{kith.__file__}: median {statistics.median(kept) * 1e6:.1f} µs over {len(kept)} calls")


if __name__ == "__main__":
    main()
