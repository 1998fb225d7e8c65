"""Home Assistant's side of a Wyoming satellite, as its `wyoming` integration behaves: describe,
run-satellite, a ping every 2 s, then for each run-pipeline the command audio in, a transcript,
synthesize and TTS audio (22050 Hz) back, and `played` expected. Prints one JSON summary.

    ha_satellite.py HOST PORT [--heard TEXT] [--answer TEXT] [--tts-seconds S] [--no-tts]
"""
import argparse
import asyncio
import json
import math
import struct
import sys

from wyoming.asr import Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.pipeline import RunPipeline
from wyoming.satellite import RunSatellite
from wyoming.snd import Played
from wyoming.tts import Synthesize
from wyoming.vad import VoiceStarted, VoiceStopped
from wyoming.wake import Detection

from answered import all_taken

TTS_RATE = 22050


def tts_audio(seconds: float) -> bytes:
    count = int(TTS_RATE * seconds)
    return b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / TTS_RATE))) for i in range(count)
    )


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--heard", default="what time is it")
    parser.add_argument("--answer", default="It is noon.")
    parser.add_argument("--tts-seconds", type=float, default=0.5)
    parser.add_argument("--no-tts", action="store_true", help="answer with an error event instead")
    parser.add_argument("--no-answer", action="store_true", help="take the command and never answer")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    summary = {"events": [], "pongs": 0}
    client = AsyncTcpClient(args.host, args.port)
    await client.connect()
    await client.write_event(Describe().event())
    while True:
        event = await client.read_event()
        if event is None:
            print("connection closed before info", file=sys.stderr)
            return 1
        if Info.is_type(event.type):
            info = Info.from_event(event)
            break
    summary["satellite"] = info.satellite.to_dict() if info.satellite else None
    summary["mic"] = info.mic[0].mic_format.to_dict() if info.mic else None
    summary["snd"] = info.snd[0].snd_format.to_dict() if info.snd else None
    summary["wake"] = [m.name for p in info.wake for m in p.models]

    await client.write_event(RunSatellite().event())
    # The satellite may already send a command before the pong: kept, and read first.
    early = []
    if not await all_taken(client, "ready?", early):
        print("connection closed before pong", file=sys.stderr)
        return 1
    print("running", flush=True)

    async def pinger():
        number = 0
        while True:
            number += 1
            await client.write_event(Ping(text=str(number)).event())
            await asyncio.sleep(2)

    ping_task = asyncio.create_task(pinger())
    audio = bytearray()
    voice_stopped = False  # this run's voice-stopped came: chunks after it were streamed live
    try:
        async with asyncio.timeout(args.timeout):
            while True:
                event = early.pop(0) if early else await client.read_event()
                if event is None:
                    summary["closed"] = True
                    break
                if Pong.is_type(event.type):
                    summary["pongs"] += 1
                    continue
                if not AudioChunk.is_type(event.type):
                    summary["events"].append(event.type)
                if Detection.is_type(event.type):
                    summary["detection"] = Detection.from_event(event).name
                elif RunPipeline.is_type(event.type):
                    run = RunPipeline.from_event(event)
                    summary["run_pipeline"] = {
                        "start_stage": run.start_stage.value,
                        "end_stage": run.end_stage.value,
                        "wake_word_name": run.wake_word_name,
                    }
                elif AudioStart.is_type(event.type):
                    start = AudioStart.from_event(event)
                    summary["audio_format"] = {"rate": start.rate, "width": start.width, "channels": start.channels}
                elif AudioChunk.is_type(event.type):
                    chunk = AudioChunk.from_event(event)
                    if (chunk.rate, chunk.width, chunk.channels) != (16000, 2, 1):
                        summary.setdefault("bad_chunks", 0)
                        summary["bad_chunks"] += 1
                    if voice_stopped:
                        summary["chunks_after_voice_stopped"] = summary.get("chunks_after_voice_stopped", 0) + 1
                    if not audio:
                        print("first-chunk", flush=True)  # a satellite streaming live: the test goes on speaking
                    audio.extend(chunk.audio)
                elif AudioStop.is_type(event.type):
                    summary["audio_seconds"] = len(audio) / 2 / 16000
                    audio = bytearray()
                    voice_stopped = False
                    if args.no_answer:
                        continue
                    if args.no_tts:
                        await client.write_event(Error(text="no intent matched", code="stt-no-text-recognized").event())
                        break
                    await client.write_event(Transcript(text=args.heard).event())
                    await client.write_event(Synthesize(text=args.answer).event())
                    pcm = tts_audio(args.tts_seconds)
                    await client.write_event(AudioStart(rate=TTS_RATE, width=2, channels=1).event())
                    for offset in range(0, len(pcm), 2048):
                        await client.write_event(
                            AudioChunk(rate=TTS_RATE, width=2, channels=1, audio=pcm[offset : offset + 2048]).event()
                        )
                    await client.write_event(AudioStop().event())
                    summary["tts_samples"] = len(pcm) // 2
                elif Played.is_type(event.type):
                    summary["played"] = True
                    break
                elif VoiceStopped.is_type(event.type):
                    voice_stopped = True
    except TimeoutError:
        summary["timed_out"] = True
    ping_task.cancel()
    await client.disconnect()
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
