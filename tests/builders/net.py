"""A free loopback port for a server a test starts (the service, the console, a health port)."""

import socket


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing is listening on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
