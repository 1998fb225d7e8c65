"""What the Home Assistant peers share: the command line's host, port and key, a client that
introduces itself as Home Assistant, and one run that connects, does the script's part,
disconnects and prints one JSON summary (a timeout or an error said in it, for the test to read).
"""
import argparse
import asyncio
import json
import sys

from aioesphomeapi import APIClient


def arguments(description: str) -> argparse.ArgumentParser:
    """HOST PORT [--noise-psk KEY]; the script adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--noise-psk")
    return parser


def client(args: argparse.Namespace, who: str = "Home Assistant (test)") -> APIClient:
    return APIClient(args.host, args.port, None, client_info=who, noise_psk=getattr(args, "noise_psk", None))


async def session(client: APIClient, summary: dict, part) -> None:
    """Connects, awaits `part()`, disconnects; prints `summary` whatever happened."""
    try:
        await asyncio.wait_for(client.connect(login=True), 30)
        await part()
        await asyncio.wait_for(client.disconnect(), 15)
        summary["disconnected"] = True
    except TimeoutError:
        summary["timed_out"] = True
    except Exception as error:  # the test reads what failed
        summary["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(summary), flush=True)


def run(main) -> None:
    asyncio.run(main())
    sys.exit(0)
