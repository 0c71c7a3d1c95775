# A rich progress bar over bytes, on standard error: export, update, rescue and the flash read show their work.
import sys


class Bar:
    """A rich progress bar over journal bytes, on standard error; nothing when stdout is not a terminal."""

    def __init__(self, label):
        self.label, self.bar, self.task = label, None, None
        self.enabled = sys.stdout.isatty() and sys.stderr.isatty()

    def __call__(self, done, total):
        if not self.enabled:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                TransferSpeedColumn(), TimeRemainingColumn(), console=Console(stderr=True))
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total or None)
        self.bar.update(self.task, completed=done, total=total or None)

    def stop(self):
        if self.bar is not None:
            self.bar.stop()
