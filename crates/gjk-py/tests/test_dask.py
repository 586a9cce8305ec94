"""A batch sent through Dask (`distributed.LocalCluster`, 2 worker processes) gives the same
answers as the local call: shapes and poses cross process boundaries by pickling.

Oracle: the local batch call; exact equality (the same code on the same numbers)."""

import numpy as np
import pytest

import gjk

distributed = pytest.importorskip("distributed")


def test_dask_local_cluster_matches_the_local_call():
    rng = np.random.default_rng(5)
    shapes = [gjk.capsule([0, -0.5, 0], [0, 0.5, 0], 0.1), gjk.points(rng.normal(size=(32, 3))),
              gjk.cuboid([0.3, 0.2, 0.1], margin=0.05), gjk.cone(0.5, 0.3, dtype="float32")]
    n = 4000
    q = rng.normal(size=(n, 4))
    poses_a = np.column_stack([rng.uniform(-1, 1, (n, 3)), q])
    poses_b = np.column_stack([rng.uniform(-1, 1, (n, 3)), q[::-1]])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        a, b = shapes[0], shapes[1]
        futures = [client.submit(gjk.batch_closest_points, a, b, poses_a[lo:lo + 1000],
                                 poses_b[lo:lo + 1000]) for lo in range(0, n, 1000)]
        remote = client.gather(futures)
        # The shape list form, with shapes of another dtype in another call.
        pairs = np.array([[0, 1], [2, 0], [1, 2]])
        far = client.submit(gjk.batch_distance, shapes[:3], pairs=pairs, poses=poses_a[:3])
        single = client.submit(gjk.batch_intersects, shapes[3], shapes[3], None, poses_b[:500])
        remote_pairs, remote_single = far.result(), single.result()
        workers = set(client.run(lambda: 1))
    assert len(workers) == 2
    local = gjk.batch_closest_points(a, b, poses_a, poses_b)
    for name in BatchFields:
        joined = np.concatenate([getattr(r, name) for r in remote])
        assert np.array_equal(joined, getattr(local, name)), name
    assert np.array_equal(remote_pairs,
                          gjk.batch_distance(shapes[:3], pairs=pairs, poses=poses_a[:3]))
    assert np.array_equal(remote_single,
                          gjk.batch_intersects(shapes[3], shapes[3], None, poses_b[:500]))


BatchFields = gjk.BatchResult.__slots__
