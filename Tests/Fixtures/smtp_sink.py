"""An SMTP server on loopback for tests: each mail it receives is written to FOLDER/mail-N.eml.

usage: /usr/bin/python3 Tests/Fixtures/smtp_sink.py FOLDER
Prints the port it listens on (127.0.0.1), then serves until its stdin closes. Needs Debian's
python3-aiosmtpd (scripts/bootstrap installs it).
"""

import pathlib
import socket
import sys

from aiosmtpd.controller import Controller


class ToFolder:
    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        path = self.folder / f"mail-{self.count}.eml"
        partial = path.with_suffix(".partial")
        partial.write_bytes(envelope.content)
        partial.rename(path)  # whole or not at all, for a reader polling the folder
        return "250 Message accepted for delivery"


def main():
    folder = sys.argv[1]
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(ToFolder(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print(port, flush=True)
    try:
        sys.stdin.read()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
