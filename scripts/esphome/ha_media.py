"""Home Assistant's media player entity for an ESPHome device (the glasses' speaker), through
aioesphomeapi: subscribe to the states, set the volume, mute and unmute, play a media URL
(HA's "play media") and wait for it to play and end, then play a longer one and stop it
while it plays. Prints one JSON summary with the media player states seen.

    ha_media.py HOST PORT MEDIA_URL LONG_MEDIA_URL [--noise-psk KEY] [--timeout S]
"""
import argparse
import asyncio
import json
import sys

from aioesphomeapi import APIClient, MediaPlayerCommand, MediaPlayerEntityState, MediaPlayerInfo, MediaPlayerState


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("media_url")
    parser.add_argument("long_media_url")
    parser.add_argument("--noise-psk")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    client = APIClient(args.host, args.port, None, client_info="Home Assistant (test)", noise_psk=args.noise_psk)
    summary: dict = {"states": []}
    changes: asyncio.Queue = asyncio.Queue()

    def on_state(state) -> None:
        if isinstance(state, MediaPlayerEntityState):
            seen = {"state": MediaPlayerState(state.state).name, "volume": round(state.volume, 3), "muted": state.muted}
            summary["states"].append(seen)
            changes.put_nowait(seen)

    async def until(test) -> dict:
        while True:
            seen = await changes.get()
            if test(seen):
                return seen

    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        entities, _ = await asyncio.wait_for(client.list_entities_services(), 30)
        key = next(entity.key for entity in entities if isinstance(entity, MediaPlayerInfo))
        client.subscribe_states(on_state)
        async with asyncio.timeout(args.timeout):
            await until(lambda seen: True)  # the state on subscribing
            client.media_player_command(key, volume=0.5)
            summary["volume_set"] = await until(lambda seen: seen["volume"] == 0.5)
            client.media_player_command(key, command=MediaPlayerCommand.MUTE)
            summary["muted"] = await until(lambda seen: seen["muted"])
            client.media_player_command(key, command=MediaPlayerCommand.UNMUTE)
            summary["unmuted"] = await until(lambda seen: not seen["muted"])
            client.media_player_command(key, media_url=args.media_url)
            summary["playing"] = await until(lambda seen: seen["state"] == "PLAYING")
            summary["played"] = await until(lambda seen: seen["state"] == "IDLE")
            client.media_player_command(key, media_url=args.long_media_url)
            await until(lambda seen: seen["state"] == "PLAYING")
            await asyncio.sleep(1.5)
            client.media_player_command(key, command=MediaPlayerCommand.STOP)
            summary["stopped"] = await until(lambda seen: seen["state"] == "IDLE")
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
