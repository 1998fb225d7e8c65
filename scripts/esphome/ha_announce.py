"""Home Assistant's `assist_satellite.announce` / `start_conversation` to an ESPHome voice
satellite, through aioesphomeapi: subscribe to the voice assistant, send
VoiceAssistantAnnounceRequest and await the device's AnnounceFinished; with
--start-conversation, then wait for the run the device starts by itself (no wake word).
Prints one JSON summary.

    ha_announce.py HOST PORT --media URL [--preannounce URL] [--text TEXT] [--start-conversation] [--noise-psk KEY]
"""
import argparse
import asyncio
import json
import sys
import time

from aioesphomeapi import APIClient, VoiceAssistantEventType


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--media", required=True)
    parser.add_argument("--preannounce", default="")
    parser.add_argument("--text", default="Dinner is ready")
    parser.add_argument("--start-conversation", action="store_true")
    parser.add_argument("--noise-psk")
    args = parser.parse_args()
    client = APIClient(args.host, args.port, None, client_info="Home Assistant (test)", noise_psk=args.noise_psk)
    result: dict = {"starts": [], "stops": []}
    started = asyncio.Event()

    async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
        result["starts"].append({"conversation_id": conversation_id, "wake_word_phrase": wake_word_phrase})
        started.set()
        return 0

    async def handle_stop(abort):
        result["stops"].append({"abort": abort})
        if not abort:
            # HA would run its pipeline; this one ends the run at once.
            client.send_voice_assistant_event(VoiceAssistantEventType.VOICE_ASSISTANT_RUN_END, {})

    async def handle_audio(data, data2):
        result["audio_bytes"] = result.get("audio_bytes", 0) + len(data)

    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        client.subscribe_voice_assistant(handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio)
        began = time.monotonic()
        finished = await client.send_voice_assistant_announcement_await_response(
            args.media, 60, text=args.text, preannounce_media_id=args.preannounce, start_conversation=args.start_conversation)
        result["success"] = finished.success
        result["seconds"] = time.monotonic() - began
        if args.start_conversation:
            await asyncio.wait_for(started.wait(), 30)
            await asyncio.sleep(1)  # some of the answer's audio
        await asyncio.wait_for(client.disconnect(), 15)
        result["disconnected"] = True
    except Exception as error:  # the test reads what failed
        result["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
