"""What the Home Assistant peers share: a ping answered means the server has taken every event
sent before it (it answers in order)."""
from wyoming.ping import Ping, Pong


async def all_taken(client, question: str, early: list | None = None) -> bool:
    """Sends a ping and waits for its pong; False when the connection closed first. Other
    events that come before the pong go to `early` (in order), when given."""
    await client.write_event(Ping(text=question).event())
    while True:
        event = await client.read_event()
        if event is None:
            return False
        if Pong.is_type(event.type):
            return True
        if early is not None:
            early.append(event)
