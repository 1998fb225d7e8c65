"""Connects to a WebSocket URL (optionally with an X-API-Key) and prints, as one JSON line, how
the server answered: {"opened": bool, "status": HTTP status if the handshake was refused,
"code": close code, "reason": close reason}."""
import asyncio
import json
import sys

import websockets


async def main(url: str, key: str | None) -> None:
    headers = {"X-API-Key": key} if key else None
    result: dict = {"opened": False}
    try:
        async with websockets.connect(url, additional_headers=headers, open_timeout=30) as socket:
            result["opened"] = True
            try:
                await asyncio.wait_for(socket.recv(), timeout=30)
            except websockets.ConnectionClosed:
                pass
            result["code"] = socket.close_code
            result["reason"] = socket.close_reason
    except websockets.InvalidStatus as error:
        result["status"] = error.response.status_code
        result["body"] = error.response.body.decode("utf-8", "replace") if error.response.body else ""
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
