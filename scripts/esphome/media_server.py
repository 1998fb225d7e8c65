"""Home Assistant's media side for the tests: a plain HTTP server (Python's http.server)
serving DIR, as HA's TTS proxy serves TTS audio: `.wav` as audio/x-wav, `.flac` as
audio/flac; a missing file is a 404. Prints "port N" once listening, serves until killed.

    media_server.py DIR
"""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wav": "audio/x-wav", ".flac": "audio/flac"}

    def log_message(self, format, *args):
        print("media_server: " + format % args, file=sys.stderr, flush=True)


def main() -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
