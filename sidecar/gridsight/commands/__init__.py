"""CLI commands, one module each (see gridsight.cli.LAZY_COMMANDS)."""
