"""Home Assistant's media player entity for an ESPHome device (the glasses' speaker), through
aioesphomeapi: subscribe to the states, set the volume, mute and unmute, play a media URL
(HA's "play media") and wait for it to play and end, then play a longer one and stop it
while it plays. Prints one JSON summary with the media player states seen.

    ha_media.py HOST PORT MEDIA_URL LONG_MEDIA_URL [--noise-psk KEY] [--timeout S]
"""
import asyncio

from aioesphomeapi import MediaPlayerCommand, MediaPlayerEntityState, MediaPlayerInfo, MediaPlayerState

import ha_peer


async def main() -> None:
    parser = ha_peer.arguments(__doc__)
    parser.add_argument("media_url")
    parser.add_argument("long_media_url")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    client = ha_peer.client(args)
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

    async def part() -> None:
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

    await ha_peer.session(client, summary, part)


if __name__ == "__main__":
    ha_peer.run(main)
