"""Progress of a batch: a bar with ETA on a terminal, one line per job otherwise, or nothing."""
import sys
import time


class _Quiet:
    def job_ended(self, record):
        pass

    def close(self):
        pass


class _Progress:
    def __init__(self, total, already, label, bar):
        self.total, self.ended, self.failed, self.bar = total, already, 0, bar
        self.already = already
        self.start = time.monotonic()
        self.out = sys.stderr
        if not bar:
            print(f"drape batch: {total} job(s), {already} already done; {label}", file=self.out, flush=True)
        else:
            self._draw()

    def _eta(self):
        ran = self.ended - self.already
        left = self.total - self.ended
        if ran <= 0 or left <= 0:
            return ""
        s = (time.monotonic() - self.start) / ran * left
        return f" ETA {int(s // 3600)}:{int(s % 3600 // 60):02d}:{int(s % 60):02d}"

    def _draw(self):
        width = 30
        filled = int(width * self.ended / self.total) if self.total else width
        failed = f", {self.failed} failed" if self.failed else ""
        self.out.write(f"\r\033[K[{'#' * filled}{'.' * (width - filled)}] {self.ended}/{self.total}{failed}"
                       f"{self._eta()}")
        self.out.flush()

    def job_ended(self, record):
        self.ended += 1
        self.failed += record["status"] == "failed"
        if self.bar:
            self._draw()
            return
        what = record.get("stop_reason") if record["status"] == "done" else \
            f"{record.get('exit_class')}: {record.get('reason')}"
        print(f"[{self.ended}/{self.total}] {record['id']}: {record['status']} ({what}, "
              f"{record.get('wall_s')} s){self._eta()}", file=self.out, flush=True)

    def close(self):
        if self.bar:
            self.out.write("\n")
            self.out.flush()


def make(mode, total, already, label):
    """mode: None/"quiet", "lines", "bar", or "auto" (a bar on a terminal, else lines)."""
    if mode in (None, "quiet"):
        return _Quiet()
    if mode == "auto":
        mode = "bar" if sys.stderr.isatty() else "lines"
    return _Progress(total, already, label, mode == "bar")
