"""Home Assistant's timer events to a Wyoming satellite, as its `wyoming` integration sends them
for timers set by voice: run-satellite, then timer-started "pasta" (300 s) and "tea" (120 s),
"tea" paused with 100 s left, "eggs" started and cancelled, "toast" started and finished. A ping
answered means the satellite has taken them all. Prints one JSON summary.

    ha_timers.py HOST PORT
"""
import asyncio
import json
import sys

from wyoming.client import AsyncTcpClient
from wyoming.satellite import RunSatellite
from wyoming.timer import TimerCancelled, TimerFinished, TimerStarted, TimerUpdated

from answered import all_taken


async def main() -> int:
    host, port = sys.argv[1], int(sys.argv[2])
    client = AsyncTcpClient(host, port)
    await client.connect()
    await client.write_event(RunSatellite().event())
    sent = [
        TimerStarted(id="t1", total_seconds=300, name="pasta", start_minutes=5),
        TimerStarted(id="t2", total_seconds=120, name="tea", start_minutes=2),
        TimerUpdated(id="t2", is_active=False, total_seconds=100),
        TimerStarted(id="t3", total_seconds=180, name="eggs", start_minutes=3),
        TimerCancelled(id="t3"),
        TimerStarted(id="t4", total_seconds=60, name="toast", start_minutes=1),
        TimerFinished(id="t4"),
    ]
    for timer in sent:
        await client.write_event(timer.event())
    async with asyncio.timeout(30):
        if not await all_taken(client, "taken?"):
            print("connection closed before pong", file=sys.stderr)
            return 1
    await client.disconnect()
    print(json.dumps({"sent": [t.event().type for t in sent]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
