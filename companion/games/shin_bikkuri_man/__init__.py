"""Shin Bikkuri Man's companion part: rules/ (pure Python: no Flask, no I/O). Its engine, web part,
templates and static files come with the game's own issue."""
