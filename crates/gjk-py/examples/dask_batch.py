"""A batch of distance queries spread over the workers of a Dask cluster.

Shapes and poses are picklable, so they travel to the workers like any argument; each worker
runs `gjk.batch_distance` on its chunk (itself parallel over the worker's cores). Dask does the
scheduling; nothing here is specific to it beyond `client.submit`.

    python examples/dask_batch.py          # a LocalCluster of 2 worker processes
"""

import numpy as np
from dask.distributed import Client, LocalCluster

import gjk


def random_poses(rng, n, reach):
    """`n` rows [x, y, z, qx, qy, qz, qw]: translations in a cube, random rotations."""
    q = rng.normal(size=(n, 4))
    return np.column_stack([rng.uniform(-reach, reach, (n, 3)), q / np.linalg.norm(q, axis=1)[:, None]])


def main(n=200_000, chunks=8):
    rng = np.random.default_rng(0)
    robot_link = gjk.capsule([0, -0.5, 0], [0, 0.5, 0], 0.1)
    obstacle = gjk.points(rng.normal(size=(32, 3)) * 0.3)  # a 32-point hull
    poses_a = random_poses(rng, n, 1.0)
    poses_b = random_poses(rng, n, 1.0)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        bounds = np.linspace(0, n, chunks + 1).astype(int)
        futures = [client.submit(gjk.batch_distance, robot_link, obstacle,
                                 poses_a[lo:hi], poses_b[lo:hi])
                   for lo, hi in zip(bounds[:-1], bounds[1:])]
        distances = np.concatenate(client.gather(futures))

    local = gjk.batch_distance(robot_link, obstacle, poses_a, poses_b)
    assert np.array_equal(distances, local)
    print(f"{n} pairs on the cluster: {np.mean(distances == 0):.1%} in collision, "
          f"smallest gap of the others {distances[distances > 0].min():.3g}; "
          f"identical to the local call")


if __name__ == "__main__":
    main()
