"""The model's settings keys, over the shared data folder (gridsight.paths)."""

from __future__ import annotations

from gridsight.paths import HOME_ENV, SETTINGS_FILE, data_dir, read_settings, settings_path, write_setting

#: Environment variable naming a GGUF that overrides the settings file and the default model.
MODEL_ENV = "GRIDSIGHT_MODEL"
#: Environment variable naming an embedding ONNX file that overrides the packaged one.
EMBED_MODEL_ENV = "GRIDSIGHT_EMBED_MODEL"

__all__ = [
    "EMBED_MODEL_ENV",
    "HOME_ENV",
    "MODEL_ENV",
    "SETTINGS_FILE",
    "data_dir",
    "read_settings",
    "settings_path",
    "write_setting",
]
