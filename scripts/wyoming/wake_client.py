"""A Wyoming wake-word client (as Home Assistant uses wyoming-openwakeword): describe, then for
each WAV file detect + audio-start + 16-bit chunks + audio-stop, collecting detection /
not-detected. Prints one JSON object per file.

    wake_client.py HOST PORT FILE.wav… [--names NAME…] [--chunk 1024]
"""
import argparse
import asyncio
import json
import sys
import wave

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.wake import Detect, Detection, NotDetected


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--names", nargs="*")
    parser.add_argument("--chunk", type=int, default=1024)
    args = parser.parse_args()

    client = AsyncTcpClient(args.host, args.port)
    await client.connect()
    await client.write_event(Describe().event())
    info = None
    while info is None:
        event = await client.read_event()
        if event is None:
            return 1
        if Info.is_type(event.type):
            info = Info.from_event(event)
    for path in args.files:
        with wave.open(path, "rb") as wav:
            rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
            pcm = wav.readframes(wav.getnframes())
        await client.write_event(Detect(names=args.names).event())
        await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
        step = args.chunk * width * channels
        for offset in range(0, len(pcm), step):
            await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=pcm[offset : offset + step]).event())
        await client.write_event(AudioStop().event())
        # The server answers in order: a ping after audio-stop marks the end of this file's results.
        await client.write_event(Ping(text=path).event())
        result = {"file": path, "detections": [], "not_detected": False, "wake_models": [m.name for p in info.wake for m in p.models]}
        while True:
            event = await client.read_event()
            if event is None:
                result["closed"] = True
                break
            if Detection.is_type(event.type):
                detection = Detection.from_event(event)
                result["detections"].append({"name": detection.name, "timestamp": detection.timestamp})
            elif NotDetected.is_type(event.type):
                result["not_detected"] = True
            elif Error.is_type(event.type):
                result["error"] = Error.from_event(event).text
            elif Pong.is_type(event.type):
                break
        print(json.dumps(result), flush=True)
    await client.disconnect()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
