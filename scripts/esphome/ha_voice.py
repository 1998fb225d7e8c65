"""Home Assistant's assist satellite for an ESPHome voice device, through aioesphomeapi, as
`homeassistant/components/esphome/assist_satellite.py` drives it: subscribe to the voice
assistant (audio over the API), and when the device starts a run (its wake word), take the
live audio, then answer with the pipeline's events (RUN_START … STT_END {text} … INTENT_END
… TTS_START {text}, TTS_END {url}, RUN_END) and wait for the device's AnnounceFinished (its
reply played). With --continue, INTENT_END says continue_conversation "1" and the follow-up
run the device starts by itself (no wake word) is served the same way. Prints "subscribed"
once subscribed, then one JSON summary.

    ha_voice.py HOST PORT [--noise-psk KEY] [--heard TEXT] [--answer TEXT] [--tts-url URL]
                [--error CODE] [--continue] [--vanish-after N] [--timeout S]

With --vanish-after N, HA vanishes mid-stream: after the run's Nth audio chunk the process
prints its summary and exits at once (no DisconnectRequest; the kernel closes the socket).
"""
import asyncio
import json
import os
import time

from aioesphomeapi import VoiceAssistantEventType as Event

import ha_peer


async def main() -> None:
    parser = ha_peer.arguments(__doc__)
    parser.add_argument("--heard", default="what time is it")
    parser.add_argument("--answer", default="It is noon.")
    parser.add_argument("--tts-url", default="")
    parser.add_argument("--error", help="answer the run with this ERROR code instead")
    parser.add_argument("--continue", dest="follow_up", action="store_true", help="ask for an answer: a second run follows")
    parser.add_argument("--vanish-after", type=int, help="exit abruptly after this many audio chunks of the first run")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    client = ha_peer.client(args)
    summary: dict = {"starts": [], "stops": [], "announce_finished": [], "runs": []}
    starts: asyncio.Queue = asyncio.Queue()
    stops: asyncio.Queue = asyncio.Queue()
    finishes: asyncio.Queue = asyncio.Queue()
    chunks: list[tuple[float, int]] = []  # (arrival, bytes) of this run's audio
    stopped = False
    chunks_after_stop = 0

    async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
        nonlocal stopped
        stopped = False
        chunks.clear()
        start = {"conversation_id": conversation_id, "flags": flags, "wake_word_phrase": wake_word_phrase, "at": time.monotonic()}
        summary["starts"].append(start)
        starts.put_nowait(start)
        return 0  # audio over the API

    async def handle_stop(abort):
        nonlocal stopped
        stopped = True
        stop = {"abort": abort, "at": time.monotonic()}
        summary["stops"].append(stop)
        stops.put_nowait(stop)

    async def handle_audio(data, data2):
        nonlocal chunks_after_stop
        if stopped:
            chunks_after_stop += 1
        chunks.append((time.monotonic(), len(data)))
        if args.vanish_after and len(chunks) >= args.vanish_after:
            summary["vanished_after_chunks"] = len(chunks)
            print(json.dumps(summary), flush=True)
            os._exit(0)  # no disconnect: the connection just drops

    async def handle_announcement_finished(message):
        finished = {"success": message.success, "at": time.monotonic()}
        summary["announce_finished"].append(finished)
        finishes.put_nowait(finished)

    async def serve(continue_conversation: bool) -> bool:
        """One run: its audio until the device ends it, HA's events, the device's AnnounceFinished."""
        await starts.get()
        # HA's VAD would say when the command ends; here the device's capture ends it
        # (VoiceAssistantAudio end=true, handle_stop(False)).
        stop = await stops.get()
        run: dict = {"abort": stop["abort"]}
        summary["runs"].append(run)
        run["audio_bytes"] = sum(size for _, size in chunks)
        run["audio_seconds"] = run["audio_bytes"] / 2 / 16000
        run["chunk_sizes"] = sorted({size for _, size in chunks})
        if chunks:
            run["first_chunk_before_stop"] = stop["at"] - chunks[0][0]
            run["chunk_spread"] = chunks[-1][0] - chunks[0][0]
        if stop["abort"]:
            return False  # the device gave the run up: HA's pipeline is cancelled
        send = client.send_voice_assistant_event
        send(Event.VOICE_ASSISTANT_RUN_START, {})
        send(Event.VOICE_ASSISTANT_STT_START, {})
        send(Event.VOICE_ASSISTANT_STT_VAD_START, {})
        send(Event.VOICE_ASSISTANT_STT_VAD_END, {})
        if args.error:
            send(Event.VOICE_ASSISTANT_ERROR, {"code": args.error, "message": "No text recognized"})
            send(Event.VOICE_ASSISTANT_RUN_END, {})
            await asyncio.sleep(2)
            return False
        send(Event.VOICE_ASSISTANT_STT_END, {"text": args.heard})
        send(Event.VOICE_ASSISTANT_INTENT_START, {})
        send(Event.VOICE_ASSISTANT_INTENT_END, {
            "conversation_id": "conversation-1", "continue_conversation": "1" if continue_conversation else "0"})
        send(Event.VOICE_ASSISTANT_TTS_START, {"text": args.answer})
        send(Event.VOICE_ASSISTANT_TTS_END, {"url": args.tts_url})
        send(Event.VOICE_ASSISTANT_RUN_END, {})
        run["finished"] = await finishes.get()
        return True

    async def part() -> None:
        client.subscribe_voice_assistant(
            handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio,
            handle_announcement_finished=handle_announcement_finished)
        print("subscribed", flush=True)
        async with asyncio.timeout(args.timeout):
            answered = await serve(args.follow_up)
            if args.follow_up and answered:
                await serve(False)
        # The first run's figures at the top level.
        summary.update({key: value for key, value in summary["runs"][0].items() if key not in ("abort", "finished")})
        summary["chunks_after_stop"] = chunks_after_stop

    await ha_peer.session(client, summary, part)


if __name__ == "__main__":
    ha_peer.run(main)
