"""Table replays: each game played through its pages on simulated phones (see replay.common)."""
