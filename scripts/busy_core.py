"""One core held by a busy loop while a benchmark's loaded part runs (bench-compare.py,
bench-race.py): the statistics targets are judged under load too."""
import contextlib
import multiprocessing


def _spin():
    while True:
        pass


@contextlib.contextmanager
def one_core_busy():
    hog = multiprocessing.Process(target=_spin, daemon=True)
    hog.start()
    try:
        yield
    finally:
        hog.terminate()
        hog.join()
