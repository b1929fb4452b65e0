#!/usr/bin/env python3
"""A local HTTP receiver for scripts/bench/notify: answers every request 201 at once, with
keep-alive, and counts what it received. Listens on 127.0.0.1 on the port it prints first
("port N"); on SIGTERM prints "received N requests, B body bytes" and exits.

usage: notify-receiver.py
"""
import asyncio
import signal
import sys

count = 0
body_bytes = 0


async def handle(reader, writer):
    global count, body_bytes
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length:
                await reader.readexactly(length)
            count += 1
            body_bytes += length
            writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
    print("port", server.sockets[0].getsockname()[1], flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    print(f"received {count} requests, {body_bytes} body bytes", flush=True)


asyncio.run(main())
