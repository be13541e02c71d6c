"""`python -m bones.ray train ...`: see `bones.ray.train`."""

import sys

from bones.ray._train import main

sys.exit(main())
