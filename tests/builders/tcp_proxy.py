"""A threaded TCP proxy on 127.0.0.1 whose connections a test can cut and restore.

``cut()`` closes every open connection and refuses new ones (the listening socket
closes, so a connect is refused at once, as with a server that is down);
``restore()`` listens again on the same port.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from types import TracebackType

HOST = "127.0.0.1"


class TcpProxy:
    """Forward connections on a local port to ``target_port``, until cut.

    ``target_port`` may be a function, asked at each connection: a broker that must be
    told the proxy's port before it starts learns its own port only as it starts.
    """

    def __init__(self, target_port: int | Callable[[], int], port: int = 0) -> None:
        self._target = target_port
        self.port = port
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None

    def start(self) -> TcpProxy:
        """Listen (on a free port the first time, then on the same one)."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def cut(self) -> None:
        """Close every connection and stop listening: connects are refused until restore()."""
        with self._lock:
            listener, self._listener = self._listener, None
            open_sockets, self._sockets = self._sockets, set()
        if listener is not None:
            listener.close()
        for sock in open_sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def restore(self) -> None:
        """Accept connections again, on the same port."""
        self.start()

    def close(self) -> None:
        """Cut everything for good."""
        self.cut()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # the listener was closed by cut()
            try:
                target = self._target if isinstance(self._target, int) else self._target()
                upstream = socket.create_connection((HOST, target), timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # cut while connecting
                    client.close()
                    upstream.close()
                    return
                self._sockets |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass  # the other direction, or cut(), closed a socket: this one ends too
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)
