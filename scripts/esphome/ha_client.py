"""Home Assistant's ESPHome integration's first steps with a device, through aioesphomeapi:
connect (hello + password-less login), device info, the entities, the states, flip the
"Mute microphone" switch, disconnect. Prints one JSON line with what it saw.

    ha_client.py HOST PORT [--noise-psk KEY] [--expected-name NAME] [--keepalive SECONDS --idle SECONDS]
"""
import asyncio
import json
import sys

from aioesphomeapi import APIClient, MediaPlayerInfo, SwitchInfo, SwitchState, MediaPlayerEntityState

import ha_peer


async def main() -> int:
    parser = ha_peer.arguments(__doc__)
    parser.add_argument("--expected-name")
    parser.add_argument("--keepalive", type=float, default=20.0)
    parser.add_argument("--idle", type=float, default=0.0)
    args = parser.parse_args()
    client = APIClient(
        args.host, args.port, None, client_info="Home Assistant (test)", noise_psk=args.noise_psk,
        expected_name=args.expected_name, keepalive=args.keepalive)
    result: dict = {}
    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        result["api_version"] = [client.api_version.major, client.api_version.minor]
        info = await asyncio.wait_for(client.device_info(), 30)
        result["device_info"] = {
            "name": info.name, "friendly_name": info.friendly_name, "mac_address": info.mac_address,
            "manufacturer": info.manufacturer, "model": info.model, "esphome_version": info.esphome_version,
            "uses_password": info.uses_password,
            "voice_assistant_feature_flags": info.voice_assistant_feature_flags,
            "api_encryption_supported": info.api_encryption_supported,
        }
        entities, services = await asyncio.wait_for(client.list_entities_services(), 30)
        result["entities"] = []
        mute_key = None
        for entity in entities:
            item = {"type": type(entity).__name__, "name": entity.name, "object_id": entity.object_id, "key": entity.key}
            if isinstance(entity, MediaPlayerInfo):
                item["supported_formats"] = [[f.format, f.sample_rate, f.num_channels, int(f.purpose)] for f in entity.supported_formats]
            if isinstance(entity, SwitchInfo) and entity.name == "Mute microphone":
                mute_key = entity.key
            result["entities"].append(item)
        result["services"] = len(services)

        states: list = []
        changed = asyncio.Event()

        def on_state(state) -> None:
            if isinstance(state, SwitchState):
                states.append({"switch": state.key, "state": state.state})
                if state.key == mute_key and state.state:
                    changed.set()
            elif isinstance(state, MediaPlayerEntityState):
                states.append({"media_player": state.key, "state": int(state.state)})

        client.subscribe_states(on_state)
        if mute_key is not None:
            await asyncio.sleep(0.3)
            client.switch_command(mute_key, True)
            try:
                await asyncio.wait_for(changed.wait(), 15)
                result["muted"] = True
            except asyncio.TimeoutError:
                result["muted"] = False
        result["states"] = states

        # What HA's assist satellite does at setup: subscribe to the voice assistant, read the
        # wake-word configuration; then an announcement whose media server is closed (not played, said at once).
        async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
            return 0

        async def handle_stop(abort):
            return None

        async def handle_audio(data, data2):
            return None

        unsubscribe = client.subscribe_voice_assistant(
            handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio)
        configuration = await client.get_voice_assistant_configuration(5)
        result["wake_words"] = {
            "available": [[w.id, w.wake_word] for w in configuration.available_wake_words],
            "active": list(configuration.active_wake_words),
            "max_active": configuration.max_active_wake_words,
        }
        finished = await client.send_voice_assistant_announcement_await_response("http://127.0.0.1:9/none.wav", 10, text="hello")
        result["announce_success"] = finished.success
        unsubscribe()
        if args.idle > 0:
            await asyncio.sleep(args.idle)
            result["connected_after_idle"] = client._connection is not None and client._connection.is_connected
        await asyncio.wait_for(client.disconnect(), 15)
        result["disconnected"] = True
    except Exception as error:  # the test reads what failed
        result["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
