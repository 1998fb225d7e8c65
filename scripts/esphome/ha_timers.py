"""Home Assistant's timer events to an ESPHome voice satellite, through aioesphomeapi, as its
assist satellite sends them for timers set by voice (`handle_timer_event`): "pasta" (300 s)
and "tea" (120 s) started, "tea" paused with 100 s left, "eggs" started and cancelled, "toast"
started and finished. The frames are taken in order, so the answer to a configuration request
sent after them means every timer event was taken. Prints one JSON summary.

    ha_timers.py HOST PORT [--noise-psk KEY]
"""
import argparse
import asyncio
import json
import sys

from aioesphomeapi import APIClient, VoiceAssistantTimerEventType as Timer


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--noise-psk")
    args = parser.parse_args()
    client = APIClient(args.host, args.port, None, client_info="Home Assistant (test)", noise_psk=args.noise_psk)
    result: dict = {}
    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        sent = [
            (Timer.VOICE_ASSISTANT_TIMER_STARTED, "t1", "pasta", 300, 300, True),
            (Timer.VOICE_ASSISTANT_TIMER_STARTED, "t2", "tea", 120, 120, True),
            (Timer.VOICE_ASSISTANT_TIMER_UPDATED, "t2", "tea", 120, 100, False),
            (Timer.VOICE_ASSISTANT_TIMER_STARTED, "t3", "eggs", 180, 180, True),
            (Timer.VOICE_ASSISTANT_TIMER_CANCELLED, "t3", "eggs", 180, 170, False),
            (Timer.VOICE_ASSISTANT_TIMER_STARTED, "t4", "toast", 60, 60, True),
            (Timer.VOICE_ASSISTANT_TIMER_FINISHED, "t4", "toast", 60, 0, False),
        ]
        for event in sent:
            client.send_voice_assistant_timer_event(*event)
        await client.get_voice_assistant_configuration(10)
        result["sent"] = [event[0].name for event in sent]
        await asyncio.wait_for(client.disconnect(), 15)
    except Exception as error:  # the test reads what failed
        result["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
