# The live board's web server run in a thread of its own for the tests: publish from the test, read over loopback.
import asyncio
import threading

from tafel_host.club import web


class BoardServer:
    def __init__(self, board=None, organiser=None, password=None):
        self.live = web.LiveBoard(board)
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(
                web.serve(self.live, "127.0.0.1", 0, organiser, password))
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(10)
        self.url = "http://127.0.0.1:%d/" % self.server.sockets[0].getsockname()[1]

    def publish(self, board):
        done = threading.Event()

        def go():
            self.live.publish(board)
            done.set()

        self.loop.call_soon_threadsafe(go)
        assert done.wait(5)

    def close(self):
        async def stop():
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def table(device, name, players, totals, status="online", finished=False, rounds=3, last_round=None,
          dealer=None, variant="standard", target=500):
    return {"device": device, "table": name, "status": status, "finished": finished, "variant": variant,
            "target": target, "players": list(players), "totals": list(totals), "round": rounds,
            "dealer": dealer, "last_round": last_round}


def board(tables, leaderboard=(), now=None, stale_min=15):
    return {"club": "Kartenclub", "evening": "2026-12-06", "now": now, "stale_min": stale_min,
            "tables": list(tables), "leaderboard": list(leaderboard), "tournament": None}
