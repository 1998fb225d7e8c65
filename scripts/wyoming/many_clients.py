"""Many Wyoming wake-word clients starting at the same instant (wyoming-openwakeword's
embeddings thread dies on this): each connects, sends the whole WAV as fast as it can, and
waits for its detection (or not-detected) and the pong after audio-stop. Prints one JSON summary.

    many_clients.py HOST PORT FILE.wav [--clients 100] [--seconds S]
"""
import argparse
import asyncio
import json
import sys
import wave

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.ping import Ping, Pong
from wyoming.wake import Detect, Detection, NotDetected


async def one(host, port, rate, width, channels, pcm, start):
    await start.wait()
    client = AsyncTcpClient(host, port)
    await client.connect()
    await client.write_event(Detect().event())
    await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
    step = 1024 * width * channels
    for offset in range(0, len(pcm), step):
        await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=pcm[offset : offset + step]).event())
    await client.write_event(AudioStop().event())
    await client.write_event(Ping(text="end").event())
    result = {"detections": 0, "not_detected": False, "pong": False}
    while True:
        event = await client.read_event()
        if event is None:
            break
        if Detection.is_type(event.type):
            result["detections"] += 1
        elif NotDetected.is_type(event.type):
            result["not_detected"] = True
        elif Pong.is_type(event.type):
            result["pong"] = True
            break
    await client.disconnect()
    return result


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("wav")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, help="send only the first SECONDS of the file")
    args = parser.parse_args()
    with wave.open(args.wav, "rb") as wav:
        rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
        pcm = wav.readframes(wav.getnframes())
    if args.seconds is not None:
        pcm = pcm[: int(args.seconds * rate) * width * channels]
    start = asyncio.Event()
    tasks = [asyncio.create_task(one(args.host, args.port, rate, width, channels, pcm, start)) for _ in range(args.clients)]
    await asyncio.sleep(0)
    start.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    done = [r for r in results if not isinstance(r, BaseException)]
    print(json.dumps({
        "clients": args.clients,
        "answered": sum(1 for r in done if r["pong"]),
        "detected": sum(1 for r in done if r["detections"] > 0),
        "not_detected": sum(1 for r in done if r["not_detected"]),
        "failures": failures[:5],
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
