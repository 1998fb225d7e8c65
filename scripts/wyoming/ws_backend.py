"""A custom assistant backend on GlassesAudio's WebSocket API (/api/assistant), on the real
`websockets` package: takes one command (JSON + audio) and answers as --mode says. Prints
"connected" once the hello arrived, then one JSON summary of what it received.

    ws_backend.py URL [--key KEY] --mode answer|audio|silent|disconnect|error|junk-then-answer
"""
import argparse
import asyncio
import json
import math
import struct
import sys

from websockets.asyncio.client import connect


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--key")
    parser.add_argument("--mode", default="answer")
    args = parser.parse_args()

    headers = {"X-API-Key": args.key} if args.key else {}
    summary = {}
    async with connect(args.url, additional_headers=headers, max_size=None) as ws:
        summary["hello"] = json.loads(await ws.recv())
        print("connected", flush=True)
        command = json.loads(await ws.recv())
        audio = await ws.recv()
        summary["command"] = command
        summary["audio_bytes"] = len(audio)
        summary["audio_magic"] = audio[:4].decode("latin-1")
        cid = command["id"]
        if args.mode == "answer":
            await ws.send(json.dumps({"type": "reply", "id": cid, "heard": "what time is it", "text": "It is noon."}))
        elif args.mode == "junk-then-answer":
            await ws.send("not json")
            summary["complaint"] = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "reply", "id": "999", "text": "wrong id"}))
            summary["complaint_id"] = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "reply", "id": cid, "heard": "what time is it", "text": "It is noon."}))
        elif args.mode == "audio":
            rate = 22050
            pcm = b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 330 * i / rate))) for i in range(rate // 2))
            await ws.send(json.dumps({"type": "reply", "id": cid, "heard": "play a tone", "text": "", "audio": {"format": "pcm_s16le", "rate": rate, "channels": 1}}))
            await ws.send(pcm)
        elif args.mode == "error":
            await ws.send(json.dumps({"type": "error", "id": cid, "text": "model overloaded"}))
        elif args.mode == "disconnect":
            await ws.close()
        elif args.mode == "silent":
            try:
                await ws.recv()  # until the server side goes away
            except Exception:
                pass
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
