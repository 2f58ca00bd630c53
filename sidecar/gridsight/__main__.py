"""`python -m gridsight` (and the PyInstaller bundle's entry point)."""

from gridsight.cli import main

if __name__ == "__main__":
    main()
