"""`python -m generator build …` / `python -m generator data …` (see generator/cli.py)."""
import sys

from .cli import main

sys.exit(main())
