"""Home Assistant's `assist_satellite.announce` to a Wyoming satellite, as its `wyoming`
integration sends it: run-satellite, then (no pipeline running) `audio-start` at 22050 Hz,
the message's audio in 1024-sample chunks (here SECONDS of a 440 Hz tone), `audio-stop`, and a
wait for `played`. Prints one JSON summary: whether `played` came, and the events before it.

    ha_announce.py HOST PORT [--seconds S] [--timeout T]
"""
import argparse
import asyncio
import json
import math
import sys

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.satellite import RunSatellite
from wyoming.snd import Played

from answered import all_taken

RATE = 22050


def tone(seconds: float) -> bytes:
    count = int(RATE * seconds)
    return b"".join(int(12000 * math.sin(2 * math.pi * 440 * i / RATE)).to_bytes(2, "little", signed=True) for i in range(count))


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    client = AsyncTcpClient(args.host, args.port)
    await client.connect()
    await client.write_event(RunSatellite().event())
    async with asyncio.timeout(10):
        if not await all_taken(client, "running?"):
            print("connection closed before pong", file=sys.stderr)
            return 1
    pcm = tone(args.seconds)
    await client.write_event(AudioStart(rate=RATE, width=2, channels=1, timestamp=0).event())
    for offset in range(0, len(pcm), 2048):
        await client.write_event(AudioChunk(rate=RATE, width=2, channels=1, audio=pcm[offset : offset + 2048]).event())
    await client.write_event(AudioStop().event())
    others = []
    played = False
    try:
        async with asyncio.timeout(args.timeout):
            while True:
                event = await client.read_event()
                if event is None:
                    break
                if Played.is_type(event.type):
                    played = True
                    break
                others.append(event.type)
    except TimeoutError:
        pass
    await client.disconnect()
    print(json.dumps({"played": played, "before_played": others}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
