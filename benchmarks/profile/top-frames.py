"""Sums async-profiler collapsed stacks (cluster-profile.sh's files): samples per thread group
(digits folded, so 'gtran-fabric-0-io-1-2' counts with its siblings) and, with --frames K, the K
frames found in most samples (inclusive). docs/benchmarks.md, "Where a 3-process cluster's CPU goes".

python3 benchmarks/profile/top-frames.py [--threads N] [--frames K] FILE...
"""
import argparse
import collections
import re


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=12)
    parser.add_argument("--frames", type=int, default=0)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    threads, frames, total = collections.Counter(), collections.Counter(), 0
    for name in args.files:
        with open(name) as f:
            for line in f:
                stack, count = line.rstrip().rsplit(" ", 1)
                count = int(count)
                total += count
                parts = stack.split(";")
                threads[re.sub(r"\d+", "N", parts[0])] += count
                seen = set()
                for frame in parts[1:]:
                    frame = re.sub(r"\$\$Lambda.*", "$$Lambda", frame)
                    if frame not in seen:
                        seen.add(frame)
                        frames[frame] += count
    print(f"samples {total}")
    for thread, count in threads.most_common(args.threads):
        print(f"{100 * count / total:5.1f}% {thread}")
    for frame, count in frames.most_common(args.frames):
        print(f"{100 * count / total:5.1f}% {frame}")


if __name__ == "__main__":
    main()
