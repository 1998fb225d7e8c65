"""Home Assistant's "Wake word" select for an ESPHome voice satellite, through aioesphomeapi:
subscribe to the voice assistant (as HA's assist satellite does), read the wake-word
configuration, choose a wake word the device does not offer, then CHOICE, reading the
configuration after each; then wait for the device to start a run (its new wake word heard)
and note the phrase it names. Prints one JSON summary.

    ha_wake_words.py HOST PORT CHOICE [--noise-psk KEY] [--timeout S]
"""
import asyncio

import ha_peer


async def main() -> None:
    parser = ha_peer.arguments(__doc__)
    parser.add_argument("choice")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    client = ha_peer.client(args)
    summary: dict = {}
    started: asyncio.Future = asyncio.get_running_loop().create_future()

    async def handle_start(conversation_id, flags, audio_settings, wake_word_phrase):
        if not started.done():
            started.set_result(wake_word_phrase)
        return 0

    async def handle_stop(abort):
        return None

    async def handle_audio(data, data2):
        return None

    async def configuration() -> dict:
        answer = await client.get_voice_assistant_configuration(10)
        return {
            "available": [[w.id, w.wake_word] for w in answer.available_wake_words],
            "active": list(answer.active_wake_words),
        }

    async def part() -> None:
        client.subscribe_voice_assistant(handle_start=handle_start, handle_stop=handle_stop, handle_audio=handle_audio)
        summary["before"] = await configuration()
        await client.set_voice_assistant_configuration(["not_a_wake_word"])
        summary["after_unknown"] = await configuration()
        await client.set_voice_assistant_configuration([args.choice])
        summary["after_choice"] = await configuration()
        try:
            summary["wake_word_phrase"] = await asyncio.wait_for(started, args.timeout)
        except TimeoutError:
            summary["no_wake"] = True

    await ha_peer.session(client, summary, part)


if __name__ == "__main__":
    ha_peer.run(main)
