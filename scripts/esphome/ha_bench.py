"""Latencies of the glasses as an ESPHome voice satellite, measured from Home Assistant's side
with aioesphomeapi (`bench/esphome-bench.sh`, `make bench`). For each of RUNS runs started by
the wake phrase on the daemon's simulated mic:
- wake → first audio: from the device's VoiceAssistantRequest(start) (sent when its wake word
  fires) to the first VoiceAssistantAudio frame, both as they arrive here;
- TTS URL → first sample: from sending TTS_END {url} (a local WAV) to the daemon's
  `assistant.replyStarted` event, which it publishes as it hands the reply's first samples to
  the speaker route, seen here on /api/events (Server-Sent Events, a few ms behind).
Prints one JSON line: the figures of each run and their medians (ms).

    ha_bench.py HOST ESPHOME_PORT HTTP_PORT API_KEY TTS_URL [--runs N] [--timeout S]
"""
import asyncio
import statistics
import threading
import time
import urllib.request

from aioesphomeapi import VoiceAssistantEventType as Event

import ha_peer


def follow_events(url: str, key: str, seen: list, stop: threading.Event) -> None:
    """Notes the arrival of each assistant.replyStarted event (monotonic seconds)."""
    request = urllib.request.Request(url, headers={"X-API-Key": key, "Accept": "text/event-stream"})
    with urllib.request.urlopen(request, timeout=600) as stream:
        kind = ""
        for raw in stream:
            if stop.is_set():
                return
            line = raw.decode("utf-8", "replace").strip()
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:") and ("replyStarted" in kind or "replyStarted" in line):
                seen.append(time.monotonic())


async def main() -> None:
    parser = ha_peer.arguments(__doc__)
    parser.add_argument("http_port", type=int)
    parser.add_argument("api_key")
    parser.add_argument("tts_url")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=180)
    args = parser.parse_args()
    replies: list = []
    stop_events = threading.Event()
    threading.Thread(
        target=follow_events, args=(f"http://{args.host}:{args.http_port}/api/events", args.api_key, replies, stop_events),
        daemon=True).start()

    client = ha_peer.client(args, who="Home Assistant (bench)")
    runs: list = []
    current: dict = {}
    stopped: asyncio.Queue = asyncio.Queue()
    finished: asyncio.Queue = asyncio.Queue()

    async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
        current.clear()
        current["start"] = time.monotonic()
        return 0

    async def handle_audio(data, data2):
        current.setdefault("first_audio", time.monotonic())

    async def handle_stop(abort):
        stopped.put_nowait(abort)

    async def handle_announcement_finished(message):
        finished.put_nowait(message.success)

    summary: dict = {"runs": runs}

    async def part() -> None:
        client.subscribe_voice_assistant(
            handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio,
            handle_announcement_finished=handle_announcement_finished)
        try:
            async with asyncio.timeout(args.timeout):
                while len(runs) < args.runs:
                    await serve()
        finally:
            stop_events.set()
            for name in ("wake_to_first_audio_ms", "tts_url_to_first_sample_ms"):
                values = [run[name] for run in runs if name in run]
                if values:
                    summary[name] = {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
                                     "max": round(max(values), 1), "n": len(values)}

    async def serve() -> None:
        """One run: the device's audio until it ends the command, then HA's answer with the TTS URL."""
        abort = await stopped.get()
        if abort or "first_audio" not in current:
            return
        run = {"wake_to_first_audio_ms": (current["first_audio"] - current["start"]) * 1000}
        send = client.send_voice_assistant_event
        for event in (Event.VOICE_ASSISTANT_RUN_START, Event.VOICE_ASSISTANT_STT_START,
                      Event.VOICE_ASSISTANT_STT_VAD_START, Event.VOICE_ASSISTANT_STT_VAD_END):
            send(event, {})
        send(Event.VOICE_ASSISTANT_STT_END, {"text": "what time is it"})
        send(Event.VOICE_ASSISTANT_INTENT_START, {})
        send(Event.VOICE_ASSISTANT_INTENT_END, {"conversation_id": "bench", "continue_conversation": "0"})
        send(Event.VOICE_ASSISTANT_TTS_START, {"text": "It is noon."})
        seen = len(replies)
        sent = time.monotonic()
        send(Event.VOICE_ASSISTANT_TTS_END, {"url": args.tts_url})
        send(Event.VOICE_ASSISTANT_RUN_END, {})
        run["played"] = await finished.get()
        if len(replies) > seen:
            run["tts_url_to_first_sample_ms"] = (replies[seen] - sent) * 1000
        runs.append(run)

    await ha_peer.session(client, summary, part)


if __name__ == "__main__":
    ha_peer.run(main)
