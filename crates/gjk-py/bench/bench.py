"""Batch throughput of the gjk Python package against a Python loop over coal and python-fcl,
and against the Rust library's own per-query time, on the same pairs.

    pip install ./crates/gjk-py coal python-fcl
    python crates/gjk-py/bench/bench.py            # prints a markdown table (docs/benchmarks.md)
    python crates/gjk-py/bench/bench.py --instructions   # instructions per query (valgrind)
    python crates/gjk-py/bench/bench.py --cpu-time       # CPU time per query, batch vs Rust

Workloads (3D, fixed seed): box-box, capsule-capsule, 32-point hull against 32-point hull; A at
a random rotation and a translation in [-10, 10]^3, B at a random rotation, offset from A along a
random direction by u * (r_A + r_B), u uniform in [0, 1) (bounding radii r), so that about half
the pairs intersect. One shape pair per workload, different poses per query.

Timings are the best of 3 runs. Peers get their favourable case: coal and fcl geometry and
transform objects are built before the timed loop, only the query call is in it. `gjk batch`
is one call for all pairs (all cores); `1 thread` is the same call with RAYON_NUM_THREADS=1;
`gjk loop` is one Python call per pair. The Rust column is `bench/rust_timing` (the library
called directly with concrete shape types, one thread, same pairs).
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

import gjk

HERE = pathlib.Path(__file__).resolve().parent


def rotation(q):
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def workloads(rng):
    """name -> (gjk A, gjk B, raw numbers of A and B for rust_timing, bounding radii)."""
    ha, hb = np.array([0.6, 1.1, 1.7]), np.array([1.4, 0.5, 0.9])
    ca = np.array([0, -0.8, 0, 0, 0.8, 0, 0.4])
    cb = np.array([-1, 0, 0, 1, 0, 0, 0.3])
    pa, pb = rng.normal(size=(32, 3)), rng.normal(size=(32, 3))
    return {
        "box": (gjk.cuboid(ha), gjk.cuboid(hb), ha, hb,
                np.linalg.norm(ha), np.linalg.norm(hb)),
        "capsule": (gjk.capsule(ca[:3], ca[3:6], ca[6]), gjk.capsule(cb[:3], cb[3:6], cb[6]),
                    ca, cb, 1.2, 1.3),
        "hull": (gjk.points(pa), gjk.points(pb), pa.ravel(), pb.ravel(),
                 np.linalg.norm(pa, axis=1).max(), np.linalg.norm(pb, axis=1).max()),
    }


def placements(rng, n, reach):
    qa, qb = rng.normal(size=(2, n, 4))
    qa /= np.linalg.norm(qa, axis=1, keepdims=True)
    qb /= np.linalg.norm(qb, axis=1, keepdims=True)
    ta = rng.uniform(-10, 10, (n, 3))
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    tb = ta + d * rng.uniform(0, 1, (n, 1)) * reach
    return np.column_stack([ta, qa]), np.column_stack([tb, qb])


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def coal_objects(name, raw_a, raw_b):
    import coal
    if name == "box":
        return coal.Box(*(2 * raw_a)), coal.Box(*(2 * raw_b))
    if name == "capsule":
        # Our capsules lie along y (A) and x (B); coal's along z: rotate them into place.
        return coal.Capsule(raw_a[6], 1.6), coal.Capsule(raw_b[6], 2.0)
    hulls = []
    for raw in (raw_a, raw_b):
        v = coal.StdVec_Vec3s()
        for p in raw.reshape(-1, 3):
            v.append(p)
        hulls.append(coal.Convex.convexHull(v, False, None))
    return hulls


# Rotations taking coal's z-axis capsules to ours (y for A, x for B).
Z_TO = {"a": np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0.0]]),
        "b": np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.0]])}


def peer_transforms(name, rows, which):
    fix = Z_TO[which] if name == "capsule" else np.eye(3)
    return [(rotation(r[3:]) @ fix, r[:3].copy()) for r in rows]


def time_coal(name, raw_a, raw_b, rows_a, rows_b):
    import coal
    ga, gb = coal_objects(name, raw_a, raw_b)
    ta = [coal.Transform3s(R, t) for R, t in peer_transforms(name, rows_a, "a")]
    tb = [coal.Transform3s(R, t) for R, t in peer_transforms(name, rows_b, "b")]
    dreq, creq = coal.DistanceRequest(), coal.CollisionRequest()
    out = []

    def distance():
        out.clear()
        for x, y in zip(ta, tb):
            res = coal.DistanceResult()
            out.append(coal.distance(ga, x, gb, y, dreq, res))

    def collide():
        for x, y in zip(ta, tb):
            coal.collide(ga, x, gb, y, creq, coal.CollisionResult())

    td, tc = best(distance), best(collide)
    return td, tc, np.maximum(np.array(out), 0.0)


def time_fcl(name, raw_a, raw_b, rows_a, rows_b):
    import fcl
    if name == "box":
        ga, gb = fcl.Box(*(2 * raw_a)), fcl.Box(*(2 * raw_b))
    elif name == "capsule":
        ga, gb = fcl.Capsule(raw_a[6], 1.6), fcl.Capsule(raw_b[6], 2.0)
    else:
        return None
    oa = [fcl.CollisionObject(ga, fcl.Transform(R, t))
          for R, t in peer_transforms(name, rows_a, "a")]
    ob = [fcl.CollisionObject(gb, fcl.Transform(R, t))
          for R, t in peer_transforms(name, rows_b, "b")]
    dreq, creq = fcl.DistanceRequest(), fcl.CollisionRequest()
    out = []

    def distance():
        out.clear()
        for x, y in zip(oa, ob):
            out.append(fcl.distance(x, y, dreq, fcl.DistanceResult()))

    def collide():
        for x, y in zip(oa, ob):
            fcl.collide(x, y, creq, fcl.CollisionResult())

    td, tc = best(distance), best(collide)
    return td, tc, np.maximum(np.array(out), 0.0)


def rust_exe():
    """The rust_timing binary, built (release) if needed; None if cargo fails."""
    manifest = HERE / "rust_timing" / "Cargo.toml"
    built = subprocess.run(["cargo", "build", "-q", "--release", "--manifest-path", str(manifest),
                            "--message-format=json"], capture_output=True, text=True)
    if built.returncode != 0:
        print(built.stderr, file=sys.stderr)
        return None
    return next(json.loads(line)["executable"] for line in built.stdout.splitlines()
                if json.loads(line).get("executable"))


def pairs_file(raw_a, raw_b, rows_a, rows_b):
    """The pairs as rust_timing reads them, in a temporary file (the caller deletes it)."""
    numbers = np.concatenate([[len(raw_a)], raw_a, [len(raw_b)], raw_b, [len(rows_a)],
                              np.column_stack([rows_a, rows_b]).ravel()])
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(numbers.astype("<f8").tobytes())
    return f.name


def rust_times(name, raw_a, raw_b, rows_a, rows_b):
    """(distance ns, intersects ns) of the Rust library called directly, or None."""
    exe = rust_exe()
    if exe is None:
        return None
    path = pairs_file(raw_a, raw_b, rows_a, rows_b)
    try:
        out = subprocess.run([exe, name, path], capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    d, i, _ = out.stdout.split()
    return float(d), float(i)


def instructions(command, env=None):
    """Instructions `command` executes (valgrind's callgrind: no hardware counters needed)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          *command], capture_output=True, text=True, check=True, env=env)
    line = next(l for l in out.stderr.splitlines() if "Collected :" in l)
    return float(line.split(":")[-1])


def instruction_table(k=5_000, passes=(1, 4)):
    """Instructions per query of the batch call (one thread) and of the Rust library: the
    difference of two runs over the same `k` pairs, one making `passes[1] - passes[0]` more
    passes than the other, over the extra queries, so start-up and set-up cancel. The batch
    builds its poses from the rows per query; the Rust loop gets them built. Insensitive to
    other load on the machine, unlike the wall times."""
    exe = rust_exe()
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    extra = (passes[1] - passes[0]) * k
    print(f"instructions per query (callgrind; {k} pairs, {passes[1]} passes minus "
          f"{passes[0]}; 1 thread)\n")
    print("| workload | query | gjk batch | Rust lib | batch / Rust |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(2026)
    for name, (a, b, raw_a, raw_b, ra, rb) in workloads(rng).items():
        rows_a, rows_b = placements(rng, k, ra + rb)
        path = pairs_file(raw_a, raw_b, rows_a, rows_b)
        try:
            for query in ("distance", "intersects"):
                ours = [instructions([sys.executable, __file__, "--count", name, query, str(k),
                                      str(r)], env) for r in passes]
                theirs = [instructions([exe, name, path, query, str(r)]) for r in passes]
                o, t = (ours[1] - ours[0]) / extra, (theirs[1] - theirs[0]) / extra
                print(f"| {name} | {query} | {o:.0f} | {t:.0f} | {o / t:.2f}x |")
        finally:
            os.unlink(path)


def cpu_seconds(command, env=None):
    """User and system CPU time of `command` (a child process, all its threads)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_table(k=200_000, passes=(1, 6), repeat=5):
    """CPU nanoseconds per query of the batch call (one thread) and of the Rust library, as
    `instruction_table` does with instructions: the difference of two runs, over the extra
    queries, each the least of `repeat` runs. CPU time, not wall time: on a shared machine a
    process waiting for a core is not charged, so the ratio holds under load (unlike the
    wall-time table); unlike instruction counts it sees stalls (latency, mispredictions)."""
    exe = rust_exe()
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    extra = (passes[1] - passes[0]) * k
    print(f"CPU ns per query ({k} pairs, {passes[1]} passes minus {passes[0]}, least of "
          f"{repeat}; 1 thread)\n")
    print("| workload | query | gjk batch | Rust lib | batch / Rust |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(2026)
    for name, (a, b, raw_a, raw_b, ra, rb) in workloads(rng).items():
        rows_a, rows_b = placements(rng, k, ra + rb)
        path = pairs_file(raw_a, raw_b, rows_a, rows_b)
        try:
            for query in ("distance", "intersects"):
                ours = [min(cpu_seconds([sys.executable, __file__, "--count", name, query,
                                         str(k), str(r)], env) for _ in range(repeat))
                        for r in passes]
                theirs = [min(cpu_seconds([exe, name, path, query, str(r)])
                              for _ in range(repeat)) for r in passes]
                o, t = (ours[1] - ours[0]) / extra * 1e9, (theirs[1] - theirs[0]) / extra * 1e9
                print(f"| {name} | {query} | {o:.1f} | {t:.1f} | {o / t:.2f}x |", flush=True)
        finally:
            os.unlink(path)


def count_run(name, query, k, passes):
    """`passes` batch calls on the `k` pairs `instruction_table` uses."""
    rng = np.random.default_rng(2026)
    for n, (a, b, _, _, ra, rb) in workloads(rng).items():
        rows_a, rows_b = placements(rng, k, ra + rb)
        if n == name:
            f = gjk.batch_distance if query == "distance" else gjk.batch_intersects
            for _ in range(passes):
                f(a, b, rows_a, rows_b)


def one_thread_times(n):
    """The batch timings with RAYON_NUM_THREADS=1, from a child process."""
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    out = subprocess.run([sys.executable, __file__, "--batch-only", "--pairs", str(n)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def batch_times(n):
    rng = np.random.default_rng(2026)
    result = {}
    for name, (a, b, _, _, ra, rb) in workloads(rng).items():
        rows_a, rows_b = placements(rng, n, ra + rb)
        result[name] = (best(lambda: gjk.batch_distance(a, b, rows_a, rows_b)) / n * 1e9,
                        best(lambda: gjk.batch_intersects(a, b, rows_a, rows_b)) / n * 1e9)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=200_000, help="pairs per batch")
    parser.add_argument("--loop-pairs", type=int, default=20_000,
                        help="pairs of the per-call Python loops")
    parser.add_argument("--instructions", action="store_true",
                        help="instruction counts (valgrind) instead of wall times")
    parser.add_argument("--cpu-time", action="store_true",
                        help="CPU time per query, batch (1 thread) against the Rust library")
    parser.add_argument("--batch-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count_run(args.count[0], args.count[1], int(args.count[2]), int(args.count[3]))
        return
    if args.instructions:
        instruction_table()
        return
    if args.cpu_time:
        cpu_table()
        return
    if args.batch_only:
        print(json.dumps(batch_times(args.pairs)))
        return
    single = one_thread_times(args.pairs)
    rng = np.random.default_rng(2026)
    rows = []
    for name, (a, b, raw_a, raw_b, ra, rb) in workloads(rng).items():
        rows_a, rows_b = placements(rng, args.pairs, ra + rb)
        n, m = args.pairs, args.loop_pairs
        ours = gjk.batch_distance(a, b, rows_a, rows_b)
        hit = gjk.batch_intersects(a, b, rows_a, rows_b)
        t_dist = best(lambda: gjk.batch_distance(a, b, rows_a, rows_b)) / n * 1e9
        t_int = best(lambda: gjk.batch_intersects(a, b, rows_a, rows_b)) / n * 1e9
        la = [gjk.Pose(r[:3], r[3:]) for r in rows_a[:m]]
        lb = [gjk.Pose(r[:3], r[3:]) for r in rows_b[:m]]
        t_loop = best(lambda: [gjk.distance(a, b, x, y) for x, y in zip(la, lb)]) / m * 1e9
        coal_d = coal_i = coal_err = fcl_d = fcl_i = fcl_err = None
        try:
            td, tc, theirs = time_coal(name, raw_a, raw_b, rows_a[:m], rows_b[:m])
            coal_d, coal_i = td / m * 1e9, tc / m * 1e9
            coal_err = float(np.max(np.abs(theirs - ours[:m])))
        except ImportError:
            pass
        try:
            timed = time_fcl(name, raw_a, raw_b, rows_a[:m], rows_b[:m])
            if timed:
                fcl_d, fcl_i = timed[0] / m * 1e9, timed[1] / m * 1e9
                fcl_err = float(np.max(np.abs(timed[2] - ours[:m])))
        except ImportError:
            pass
        rust = rust_times(name, raw_a, raw_b, rows_a, rows_b)
        rows.append(dict(name=name, hit=float(np.mean(hit)), t_dist=t_dist, t_int=t_int,
                         t1_dist=single[name][0], t1_int=single[name][1], t_loop=t_loop,
                         coal_d=coal_d, coal_i=coal_i, coal_err=coal_err, fcl_d=fcl_d,
                         fcl_i=fcl_i, fcl_err=fcl_err, rust=rust))
    print_table(rows, args)


def fmt(x, unit=""):
    return "n/a" if x is None else f"{x:.0f}{unit}" if x >= 100 else f"{x:.1f}{unit}"


def print_table(rows, args):
    print(f"{args.pairs} pairs per batch, {args.loop_pairs} per Python loop, "
          f"{os.cpu_count()} cores; ns per query (best of 3)\n")
    print("| workload | query | gjk batch | gjk batch, 1 thread | Rust lib, 1 thread "
          "| batch 1 thread / Rust | gjk Python loop | coal loop | python-fcl loop "
          "| coal loop / gjk batch | max abs diff vs coal, fcl |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rust_d, rust_i = r["rust"] if r["rust"] else (None, None)
        for q, t, t1, rust, loop, c, f in (
                ("distance", r["t_dist"], r["t1_dist"], rust_d, r["t_loop"], r["coal_d"],
                 r["fcl_d"]),
                ("intersects", r["t_int"], r["t1_int"], rust_i, None, r["coal_i"], r["fcl_i"])):
            ratio = None if rust is None else t1 / rust
            speed = None if c is None else c / t
            diffs = (f"{r['coal_err']:.1e}, " if r["coal_err"] is not None else "n/a, ") + \
                (f"{r['fcl_err']:.1e}" if r["fcl_err"] is not None else "n/a")
            print(f"| {r['name']} ({r['hit']:.0%} hit) | {q} | {fmt(t)} | {fmt(t1)} "
                  f"| {fmt(rust)} | {fmt(ratio, 'x') if ratio else 'n/a'} | {fmt(loop)} "
                  f"| {fmt(c)} | {fmt(f)} | {fmt(speed, 'x') if speed else 'n/a'} "
                  f"| {diffs if q == 'distance' else ''} |")


if __name__ == "__main__":
    main()
