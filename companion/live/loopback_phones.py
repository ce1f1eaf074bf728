"""Many live phones on this machine's loopback, for tests and benchmarks: each `Phone` is one raw
Server-Sent Events stream (asyncio, no browser), from its own loopback address (127.x.y.z, as each
phone on a Wi-Fi has its own), recording when each event of the table's log arrives.

    phones = [Phone(port, code, address(i)) for i in range(500)]
    await open_all(phones)                 # each has its first `table` message
    ... write to the tables ...
    await wait_for(phones, seq)            # every phone has every event up to seq
    phone.arrived[seq]                     # time.monotonic() when event seq arrived

Only this machine is ever contacted (127.0.0.0/8).
"""
from __future__ import annotations

import asyncio
import json
import time


def address(i: int, per_address: int = 2) -> str:
    """The loopback address of phone `i` (`per_address` phones share one; never 127.0.0.1)."""
    n = i // per_address
    return f"127.{1 + n // 62500}.{n // 250 % 250}.{2 + n % 250}"


class Phone:
    """One live stream of table `code` (as `token`'s seat, or anonymous)."""

    def __init__(self, port: int, code: str, source: str = "127.0.0.1", token: str | None = None,
                 last_event_id: int | None = None, light: bool = False):
        self.port, self.code, self.source = port, code, source
        self.token, self.last_event_id = token, last_event_id
        self.light = light                    # (benchmarks) record arrivals only, decode nothing
        self.status = 0
        self.head = b""
        self.error: dict | None = None
        self.events: list[dict] = []          # the numbered messages' data, in order
        self.tables: list[dict] = []          # the `table` messages' data
        self.arrived: dict[int, float] = {}   # seq -> time.monotonic() at arrival
        self.heartbeats = 0
        self.ended = False                    # the server ended the stream (the last chunk)
        self.ready = asyncio.Event()          # the first `table` message is in
        self.changed = asyncio.Event()        # set on every numbered message
        self._reader = self._writer = None
        self._task: asyncio.Task | None = None

    async def open(self, timeout: float = 20.0) -> int:
        """Connect and send the request; returns the status (200: the stream runs in a task)."""
        self._reader, self._writer = await asyncio.wait_for(asyncio.open_connection(
            "127.0.0.1", self.port, local_addr=(self.source, 0)), timeout)
        lines = [f"GET /api/tables/{self.code}/events HTTP/1.1", "Host: 127.0.0.1",
                 "Accept: text/event-stream"]
        if self.token:
            lines.append(f"Authorization: Bearer {self.token}")
        if self.last_event_id is not None:
            lines.append(f"Last-Event-ID: {self.last_event_id}")
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.head = await asyncio.wait_for(self._reader.readuntil(b"\r\n\r\n"), timeout)
        self.status = int(self.head.split(b" ", 2)[1])
        if self.status != 200:
            length = 0
            for line in self.head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = await asyncio.wait_for(self._reader.readexactly(length), timeout)
            self.error = json.loads(body) if body else None
            self.close()
            return self.status
        self._task = asyncio.get_running_loop().create_task(self._read())
        return self.status

    async def _read(self) -> None:
        chunked = b"transfer-encoding: chunked" in self.head.lower()
        text = ""
        try:
            while True:
                if chunked:
                    size = int((await self._reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        self.ended = True
                        return
                    data = await self._reader.readexactly(size + 2)
                    text += data[:-2].decode()
                else:
                    data = await self._reader.read(65536)
                    if not data:
                        self.ended = True
                        return
                    text += data.decode()
                *blocks, text = text.split("\n\n")
                for block in blocks:
                    self._message(block)
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    def _message(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.heartbeats += 1
            elif line:
                name, _, value = line.partition(": ")
                fields[name] = value
        if "data" not in fields:
            return
        if self.light:
            if fields.get("event") == "table":
                self.ready.set()
            elif "id" in fields:
                self.arrived.setdefault(int(fields["id"]), time.monotonic())
                self.changed.set()
            return
        data = json.loads(fields["data"])
        if fields.get("event") == "table":
            self.tables.append(data)
            self.ready.set()
        elif "id" in fields:
            seq = int(fields["id"])
            self.arrived.setdefault(seq, time.monotonic())
            self.events.append(data)
            self.changed.set()

    @property
    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events]

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()

    async def finished(self, timeout: float) -> None:
        """Until the server ends the stream."""
        if self._task is not None:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)


async def open_all(phones: list[Phone], at_once: int = 50, timeout: float = 30.0) -> list[int]:
    """Open every phone's stream (`at_once` connecting at a time) and wait for each one's first
    `table` message; returns their statuses."""
    gate = asyncio.Semaphore(at_once)

    async def one(phone: Phone) -> int:
        async with gate:
            status = await phone.open(timeout)
            if status == 200:
                await asyncio.wait_for(phone.ready.wait(), timeout)
            return status
    return list(await asyncio.gather(*(one(p) for p in phones)))


async def wait_for(phones: list[Phone], seq: int, timeout: float) -> bool:
    """Until every phone has the event `seq` (True), or `timeout` seconds pass (False)."""
    end = time.monotonic() + timeout
    for phone in phones:
        while seq not in phone.arrived:
            left = end - time.monotonic()
            if left <= 0:
                return False
            phone.changed.clear()
            try:
                await asyncio.wait_for(phone.changed.wait(), min(left, 0.5))
            except asyncio.TimeoutError:
                pass
    return True


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100) of `values`, nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]
