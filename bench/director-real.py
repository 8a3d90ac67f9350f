#!/usr/bin/env python3
# director-real.py ADDR PORT: a real server for bench/director.sh. One asyncio process, no thread per
# connection. GET /small answers 100 bytes of body; GET /big?N answers N bytes (streamed in 256 KiB
# writes); then it closes (HTTP/1.0, one request per connection).
import asyncio, sys

CHUNK = b"x" * 262144

async def handle(reader, writer):
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        path = head.split(b" ", 2)[1]
        size = int(path.split(b"?", 1)[1]) if path.startswith(b"/big?") else 100
        writer.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % size)
        left = size
        while left > 0:
            n = min(left, len(CHUNK))
            writer.write(CHUNK[:n])
            left -= n
            await writer.drain()
        await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()

async def main():
    server = await asyncio.start_server(handle, sys.argv[1], int(sys.argv[2]), backlog=4096, reuse_address=True)
    async with server:
        await server.serve_forever()

asyncio.run(main())
