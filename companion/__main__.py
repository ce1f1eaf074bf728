"""`python -m companion`: the companion's command line (companion/serve/cli.py)."""
from companion.serve.cli import main

raise SystemExit(main())
