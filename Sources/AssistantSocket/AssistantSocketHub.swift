// The WebSocket assistant backend.
