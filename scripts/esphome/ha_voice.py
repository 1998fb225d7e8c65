"""Home Assistant's assist satellite for an ESPHome voice device, through aioesphomeapi, as
`homeassistant/components/esphome/assist_satellite.py` drives it: subscribe to the voice
assistant (audio over the API), and when the device starts a run (its wake word), take the
live audio, then answer with the pipeline's events (RUN_START … STT_END {text} … INTENT_END
… TTS_START {text}, TTS_END {url}, RUN_END) and wait for the device's AnnounceFinished (its
reply played). Prints "subscribed" once subscribed, then one JSON summary.

    ha_voice.py HOST PORT [--noise-psk KEY] [--heard TEXT] [--answer TEXT] [--tts-url URL]
                [--error CODE] [--timeout S]
"""
import argparse
import asyncio
import json
import sys
import time

from aioesphomeapi import APIClient, VoiceAssistantEventType as Event


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--noise-psk")
    parser.add_argument("--heard", default="what time is it")
    parser.add_argument("--answer", default="It is noon.")
    parser.add_argument("--tts-url", default="")
    parser.add_argument("--error", help="answer the run with this ERROR code instead")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    client = APIClient(args.host, args.port, None, client_info="Home Assistant (test)", noise_psk=args.noise_psk)
    summary: dict = {"starts": [], "stops": [], "announce_finished": []}
    started = asyncio.Event()
    stopped = asyncio.Event()
    finished = asyncio.Event()
    chunks: list[tuple[float, int]] = []  # (arrival, bytes) of this run's audio
    chunks_after_stop = 0

    async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
        summary["starts"].append({
            "conversation_id": conversation_id, "flags": flags, "wake_word_phrase": wake_word_phrase, "at": time.monotonic(),
        })
        started.set()
        return 0  # audio over the API

    async def handle_stop(abort):
        summary["stops"].append({"abort": abort, "at": time.monotonic()})
        stopped.set()

    async def handle_audio(data, data2):
        nonlocal chunks_after_stop
        if stopped.is_set():
            chunks_after_stop += 1
        chunks.append((time.monotonic(), len(data)))

    async def handle_announcement_finished(message):
        summary["announce_finished"].append({"success": message.success, "at": time.monotonic()})
        finished.set()

    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        client.subscribe_voice_assistant(
            handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio,
            handle_announcement_finished=handle_announcement_finished)
        print("subscribed", flush=True)
        async with asyncio.timeout(args.timeout):
            await started.wait()
            # HA's VAD would say when the command ends; here the device's capture ends it
            # (VoiceAssistantAudio end=true, handle_stop(False)).
            await stopped.wait()
            summary["audio_bytes"] = sum(size for _, size in chunks)
            summary["audio_seconds"] = summary["audio_bytes"] / 2 / 16000
            summary["chunk_sizes"] = sorted({size for _, size in chunks})
            if chunks:
                stop_at = summary["stops"][0]["at"]
                summary["first_chunk_before_stop"] = stop_at - chunks[0][0]
                summary["chunk_spread"] = chunks[-1][0] - chunks[0][0]
            send = client.send_voice_assistant_event
            send(Event.VOICE_ASSISTANT_RUN_START, {})
            send(Event.VOICE_ASSISTANT_STT_START, {})
            send(Event.VOICE_ASSISTANT_STT_VAD_START, {})
            send(Event.VOICE_ASSISTANT_STT_VAD_END, {})
            if args.error:
                send(Event.VOICE_ASSISTANT_ERROR, {"code": args.error, "message": "No text recognized"})
                send(Event.VOICE_ASSISTANT_RUN_END, {})
                await asyncio.sleep(2)
            else:
                send(Event.VOICE_ASSISTANT_STT_END, {"text": args.heard})
                send(Event.VOICE_ASSISTANT_INTENT_START, {})
                send(Event.VOICE_ASSISTANT_INTENT_END, {"conversation_id": "conversation-1", "continue_conversation": "0"})
                send(Event.VOICE_ASSISTANT_TTS_START, {"text": args.answer})
                send(Event.VOICE_ASSISTANT_TTS_END, {"url": args.tts_url})
                send(Event.VOICE_ASSISTANT_RUN_END, {})
                await finished.wait()
        summary["chunks_after_stop"] = chunks_after_stop
        await asyncio.wait_for(client.disconnect(), 15)
        summary["disconnected"] = True
    except TimeoutError:
        summary["timed_out"] = True
    except Exception as error:  # the test reads what failed
        summary["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
