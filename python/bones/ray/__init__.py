"""Bones on Ray (`ray` is imported only when a function here is called, so
`import bones` does not need it; `pip install 'bones[ray]'`):

- `bones.ray.evaluate(a, b, ..., num_workers=W)`: `bones.evaluate` with its
  duplicate deals sharded over Ray tasks; the same result for the same seed.
- `bones.ray.train(config, workers=N, out=...)` and `python -m bones.ray train
  --config C --workers N [--address auto] [--out runs/NAME] [--resume]`: the
  actor-learner of `bones train --workers N` with its rollout workers as Ray
  actors anywhere in the cluster and the learner in the driver.

Ray: with `address` (or after `ray.init`, e.g. with RAY_ADDRESS) the work runs
on that cluster; otherwise on a local Ray. Every node needs the `bones`
package installed (and any `model:PATH` reachable at PATH).
"""

from ._evaluate import evaluate, shard_ranges
from ._train import train

__all__ = ["evaluate", "shard_ranges", "train"]
