"""The malformed-frame suite: one raw client per broken frame (expects an `error` event naming
the problem, then its connection closed, or kept open where the stream is still in step) while
a second client, on the real `wyoming` package, keeps streaming a wake phrase undisturbed.
Prints one JSON summary.

    malformed.py HOST PORT WAKE.wav [--passes 3]
"""
import argparse
import asyncio
import json
import sys
import wave

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.event import async_read_event
from wyoming.ping import Ping, Pong
from wyoming.wake import Detect, Detection, NotDetected

CASES = [
    # name, bytes, expected code, whether the connection should stay open
    ("header over 64 KiB", b'{"type": "ping", "x": "' + b"a" * 70000, "header-too-long", False),
    ("invalid JSON", b"this is not json\n", "invalid-json", False),
    ("header not an object", b"[1, 2, 3]\n", "invalid-json", False),
    ("missing type", b'{"data": {}}\n', "missing-type", False),
    ("negative length", b'{"type": "audio-chunk", "payload_length": -5}\n', "invalid-length", False),
    ("huge length", b'{"type": "audio-chunk", "payload_length": 1000000000000}\n', "invalid-length", False),
    ("data not JSON", b'{"type": "ping", "data_length": 5}\nxxxxx', "invalid-data", False),
    ("truncated payload", b'{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 1000}\n' + b"\0" * 10, "truncated", False),
    ("unknown type", b'{"type": "frobnicate"}\n', "unknown-type", True),
    ("bad field", b'{"type": "audio-start", "data": {"rate": 16000, "width": 3, "channels": 1}}\n', "bad-field", True),
]


async def run_case(host, port, name, payload, code, stays_open):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(payload)
    await writer.drain()
    if code == "truncated":
        writer.write_eof()  # the stream ends inside the payload
    result = {"name": name, "expected": code}
    event = await asyncio.wait_for(async_read_event(reader), timeout=20)
    result["type"] = event.type if event else None
    result["code"] = event.data.get("code") if event else None
    result["text"] = event.data.get("text") if event else None
    if stays_open:
        writer.write(b'{"type": "ping", "data": {"text": "still there"}}\n')
        await writer.drain()
        pong = await asyncio.wait_for(async_read_event(reader), timeout=20)
        result["open_after"] = bool(pong and pong.type == "pong")
    else:
        rest = await asyncio.wait_for(reader.read(), timeout=20)  # EOF: the server closed it
        result["closed"] = rest == b""
    writer.close()
    result["ok"] = result["code"] == code and (result.get("open_after") if stays_open else result.get("closed", False))
    return result


async def streamer(host, port, path, passes):
    with wave.open(path, "rb") as wav:
        rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
        pcm = wav.readframes(wav.getnframes())
    client = AsyncTcpClient(host, port)
    await client.connect()
    summary = {"passes": passes, "detections": [], "not_detected": 0, "pings": 0, "pongs": 0}
    step = 1024 * width * channels
    for number in range(passes):
        await client.write_event(Detect().event())
        await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
        for offset in range(0, len(pcm), step):
            await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=pcm[offset : offset + step]).event())
            await asyncio.sleep(0.002)  # interleave with the broken clients
        await client.write_event(AudioStop().event())
        await client.write_event(Ping(text=str(number)).event())
        summary["pings"] += 1
        while True:
            event = await asyncio.wait_for(client.read_event(), timeout=30)
            if event is None:
                summary["closed"] = True
                return summary
            if Detection.is_type(event.type):
                summary["detections"].append(Detection.from_event(event).name)
            elif NotDetected.is_type(event.type):
                summary["not_detected"] += 1
            elif Pong.is_type(event.type):
                summary["pongs"] += 1
                break
    await client.disconnect()
    return summary


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("wav")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()

    stream_task = asyncio.create_task(streamer(args.host, args.port, args.wav, args.passes))
    cases = []
    for _ in range(args.passes):
        for case in CASES:
            cases.append(await run_case(args.host, args.port, *case))
    streamed = await stream_task
    print(json.dumps({"cases": cases, "streamer": streamed}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
