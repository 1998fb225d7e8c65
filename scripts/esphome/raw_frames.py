"""Broken input for an ESPHome API server, over raw sockets: each case on its own connection,
what the server answered (bytes) and whether it closed. Then a well-formed hello, an unknown
message type and a ping on one connection: the pong shows the connection was kept.
Prints one JSON line.

    raw_frames.py HOST PORT
"""
import asyncio
import json
import sys

from aioesphomeapi._frame_helper.packets import make_plain_text_packets
from aioesphomeapi.api_pb2 import HelloRequest


async def exchange(host: str, port: int, payload: bytes, read_until_close: bool = True) -> dict:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(payload)
    await writer.drain()
    received = b""
    closed = False
    try:
        while True:
            chunk = await asyncio.wait_for(reader.read(4096), 5)
            if not chunk:
                closed = True
                break
            received += chunk
            if not read_until_close:
                break
    except asyncio.TimeoutError:
        pass
    except ConnectionResetError:
        closed = True
    writer.close()
    return {"received": received.hex(), "closed": closed}


async def main() -> int:
    host, port = sys.argv[1], int(sys.argv[2])
    result = {}
    result["garbage"] = await exchange(host, port, b"GET / HTTP/1.1\r\n\r\n")
    result["noise_hello"] = await exchange(host, port, bytes([0x01, 0x00, 0x00]))
    # A body of 1 MB announced (more than the 65535 the API allows).
    result["oversized"] = await exchange(host, port, bytes([0x00, 0x80, 0x80, 0x40, 0x07]))
    result["endless_varint"] = await exchange(host, port, bytes([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
    hello = HelloRequest(client_info="raw", api_version_major=1, api_version_minor=10).SerializeToString()
    packets = b"".join(make_plain_text_packets([(1, hello), (250, b"\x01\x02\x03"), (7, b"")]))
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(packets)
    await writer.drain()
    received = b""
    try:
        while not received.endswith(bytes([0x00, 0x00, 0x08])):
            chunk = await asyncio.wait_for(reader.read(4096), 5)
            if not chunk:
                break
            received += chunk
    except asyncio.TimeoutError:
        pass
    result["unknown_type_then_ping"] = {"pong": received.endswith(bytes([0x00, 0x00, 0x08])), "received": received.hex()}
    writer.close()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
