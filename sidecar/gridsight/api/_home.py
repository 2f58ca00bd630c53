"""The sidecar's per-user files live in the shared data folder (gridsight.paths)."""

from gridsight.paths import HOME_ENV, data_dir, private_dir, write_private

__all__ = ["HOME_ENV", "data_dir", "private_dir", "write_private"]
