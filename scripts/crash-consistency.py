#!/usr/bin/env python3
"""Crash-consistency evidence for the cache file: no finished entry is ever lost.

Not a test (it takes minutes and its kill moments are random); run it before changing how the
cache is written and keep its counts in the change's note. Five parts, each printing counts:

1. `kill -9` of `spvtune tune --retune` at a random moment, KILLS times in one cache
   directory (a small problem of eight keys). After every kill the cache file must parse, keep
   every entry stored before, and hold every key the killed run printed as tuned.
2. Four `spvtune tune` processes at once on one cache file, each tuning two of the eight keys,
   ROUNDS times: every key of every writer must be in the file afterwards.
3. Four cache writers at once (tests/cache/cache_writer.cpp, the library's save path), each
   saving KEYS keys and printing each acknowledged save, killed with -9 at a random moment:
   every acknowledged key must be in the file. Most saves append a record to the journal beside
   the file (`<file>.journal`); the part also counts the kills that left a record cut short
   there (which readers ignore, and the next save writes over).
4. `kill -9` of `spvtune cache compact` at a random moment, COMPACTS times, each on a cache
   whose journal holds entries the file does not: the file must load and keep every entry.
5. Journals damaged as no crash damages them, CORRUPTIONS times each way: a flipped byte in a
   random record, in the header's text or in its base (another hex digit), garbage appended (a whole line, or one with no newline,
   which reads as a torn record), records reordered, a record duplicated. Damage must be
   refused by `cache show` (exit 2, naming the journal), and the next save must keep the
   journal aside whole (`<file>.journal.corrupt-<time>`, byte for byte) with the records before
   the damage in the file: no intact record silently lost. What is no damage (reordered,
   duplicated, torn) must read back with every entry.

Usage: scripts/crash-consistency.py [--kills N] [--rounds N] [--keys N] [--compacts N]
                                    [--corruptions N] [--build DIR]
Exit status: 0 when nothing was lost, 1 otherwise.
"""

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBLEM = {
    "name": "crash-consistency",
    "parameters": {"n": {"type": "int"}},
    "keys": {"grid": {"n": [1024, 1025, 1026, 1027, 1028, 1029, 1030, 1031]}},
    "buffers": {
        "x": {"type": "f32", "count": "n", "init": {"iota": {}}, "role": "input"},
        "y": {"type": "f32", "count": "n", "role": "output"},
    },
    "candidates": [{
        "name": "scale", "spirv": "scale.spv", "grid": {"WG": [1, 64]},
        "specialization": {"0": "WG"}, "workgroups": ["ceil_div(n, WG)", 1, 1],
        "push_constants": [{"type": "u32", "value": "n"}], "bindings": {"0": "x", "1": "y"},
    }],
    "reference": {"candidate": "scale[WG=1]", "compare": {"y": {"rtol": 1e-6}}},
    "settings": {"mode": "fixed", "warmup": 0, "samples": 3, "min_sample_ms": 0},
}
KEYS = PROBLEM["keys"]["grid"]["n"]


def cache_entries(binary, directory):
    """The printed keys of every entry in the directory's cache files; None when one does not
    parse. Moved-aside files (".corrupt-") count as a parse failure: a crash must not cause one.
    """
    keys = set()
    for path in Path(directory).glob("*.json"):
        if ".corrupt-" in path.name:
            return None
        shown = subprocess.run([binary, "cache", "show", str(path), "--json"],
                               capture_output=True, text=True)
        if shown.returncode != 0:
            return None
        document = json.loads(shown.stdout)
        for lists in document["tuners"].values():
            for candidate_list in lists.values():
                keys.update(e["printed_key"] for e in candidate_list["entries"].values())
    return keys


def tuned_keys(output):
    """Keys a tune run printed as finished ("crash-consistency n=1024: tuned in ...")."""
    return {line.split(" ")[1].rstrip(":") for line in output.splitlines()
            if line.startswith("crash-consistency n=") and ": tuned in" in line}


def kill_tune(binary, problem, kernels, kills):
    directory = tempfile.mkdtemp(prefix="crash-kill-")
    base = [binary, "tune", problem, "--kernel-dir", kernels, "--cache-dir", directory]
    started = time.monotonic()
    subprocess.run(base, capture_output=True, check=True)  # every key stored once
    full_run = time.monotonic() - started
    known = cache_entries(binary, directory)
    lost = unreadable = 0
    for _ in range(kills):
        child = subprocess.Popen(base + ["--retune"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        output = []
        reader = threading.Thread(target=lambda: output.append(child.stdout.read()))
        reader.start()
        time.sleep(random.uniform(0, full_run * 1.2))
        child.kill()
        child.wait()
        reader.join()
        present = cache_entries(binary, directory)
        if present is None:
            unreadable += 1
            continue
        lost += len((known | tuned_keys("".join(output))) - present)
        known |= present
    shutil.rmtree(directory)
    print(f"kill -9 of tune: {kills} kills (a full run takes {full_run:.2f} s), "
          f"{lost} entries lost, {unreadable} times the cache did not read back")
    return lost + unreadable


def concurrent_tunes(binary, kernels, rounds):
    lost = unreadable = 0
    for _ in range(rounds):
        directory = tempfile.mkdtemp(prefix="crash-writers-")
        # --key filters are ANDed, so each writer gets its own copy of the problem, with two
        # of the keys.
        writers = []
        for w in range(4):
            own = dict(PROBLEM, keys={"list": [{"n": n} for n in KEYS[2 * w:2 * w + 2]]})
            path = Path(directory) / "problems" / f"writer{w}.json"
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(own))
            writers.append(subprocess.Popen(
                [binary, "tune", str(path), "--kernel-dir", kernels, "--cache-dir", directory,
                 "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        failed = sum(writer.wait() != 0 for writer in writers)
        present = cache_entries(binary, directory)
        if present is None or failed:
            unreadable += 1
            continue
        lost += len({f"n={n}" for n in KEYS} - present)
        shutil.rmtree(directory)
    print(f"4 concurrent tunes: {rounds} rounds ({4 * rounds} writers), {lost} entries lost, "
          f"{unreadable} rounds with a failed writer or an unreadable cache")
    return lost + unreadable


def torn_journal_tail(directory):
    """True when a journal in `directory` ends in a record cut short (a kill during an append).
    Records: "<16 hex FNV-1a 64 of the payload> <length> <payload>\\n" after one header line."""
    for journal in Path(directory).glob("*.json.journal"):
        data = journal.read_bytes()
        at = data.find(b"\n") + 1
        while at < len(data):
            try:
                checksum, length, rest = data[at:].split(b" ", 2)
                length = int(length)
            except ValueError:
                return True
            payload = rest[:length]
            if len(payload) < length or rest[length:length + 1] != b"\n" \
                    or int(checksum, 16) != fnv1a64(payload):
                return True
            at += len(checksum) + len(str(length)) + 2 + length + 1
    return False


def fnv1a64(data):
    value = 0xcbf29ce484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return value


# The writer's candidates are tests/cache's sample_candidates(), and a winner is named after its
# candidate (a store refuses any other name).
WRITER_WINNERS = ["naive", "tiled_16x16", "tiled_32x8", "broken"]


def concurrent_writers(binary, writer, keys):
    directory = tempfile.mkdtemp(prefix="crash-store-")
    start = Path(directory) / "start"
    children = [subprocess.Popen(
        [writer, directory, WRITER_WINNERS[w], str(start)]
        + [str(w * keys + k) for k in range(keys)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for w in range(4)]
    outputs = [[] for _ in children]
    readers = [threading.Thread(target=lambda c=c, o=o: o.append(c.stdout.read()))
               for c, o in zip(children, outputs)]
    for reader in readers:
        reader.start()
    start.touch()
    time.sleep(random.uniform(0.05, 0.5))
    for child in children:
        child.kill()
    for child, reader in zip(children, readers):
        child.wait()
        reader.join()
    acknowledged = {f"n={line.split()[1]}" for o in outputs for line in "".join(o).splitlines()
                    if line.startswith("stored ")}
    torn = torn_journal_tail(directory)
    present = cache_entries(binary, directory)
    shutil.rmtree(directory)
    if present is None:
        print("4 cache writers killed with -9: the cache did not read back")
        return 1, torn
    lost = len(acknowledged - present)
    print(f"4 cache writers killed with -9: {len(acknowledged)} saves acknowledged, "
          f"{lost} lost{', a journal record cut short' if torn else ''}")
    return lost, torn


def kill_compact(binary, writer, compacts, keys):
    # One cache whose journal holds entries the file does not (the first save writes the file,
    # later ones append), copied for each kill.
    template = tempfile.mkdtemp(prefix="crash-compact-")
    subprocess.run([writer, template, WRITER_WINNERS[0], "-"] + [str(k) for k in range(keys)],
                   capture_output=True, check=True)
    known = cache_entries(binary, template)
    timing = tempfile.mkdtemp(prefix="crash-compact-")
    shutil.rmtree(timing)
    shutil.copytree(template, timing)
    started = time.monotonic()
    subprocess.run([binary, "cache", "compact", timing], capture_output=True, check=True)
    full_run = time.monotonic() - started
    shutil.rmtree(timing)
    lost = unreadable = folded = 0
    for _ in range(compacts):
        directory = tempfile.mkdtemp(prefix="crash-compact-")
        shutil.rmtree(directory)
        shutil.copytree(template, directory)
        child = subprocess.Popen([binary, "cache", "compact", directory],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, full_run * 1.2))
        child.kill()
        child.wait()
        folded += not any(Path(directory).glob("*.journal"))
        present = cache_entries(binary, directory)
        shutil.rmtree(directory)
        if present is None:
            unreadable += 1
            continue
        lost += len(known - present)
    shutil.rmtree(template)
    print(f"kill -9 of cache compact: {compacts} kills of a {len(known)}-entry cache (a full "
          f"run takes {full_run:.2f} s; {folded} kills came after the journal was folded in), "
          f"{lost} entries lost, {unreadable} times the cache did not read back")
    return lost + unreadable


def journal_records(data):
    """The header line and the record lines of a journal's bytes (each with its newline)."""
    lines = data.splitlines(keepends=True)
    return lines[0], lines[1:]


def record_key(record):
    """The printed key of the entry a record holds ("n=3"), or None when it does not parse."""
    try:
        _, _, payload = record.rstrip(b"\n").split(b" ", 2)
        for lists in json.loads(payload).values():
            for candidate_list in lists.values():
                for entry in candidate_list["entries"].values():
                    return entry["printed_key"]
    except (ValueError, KeyError):
        return None
    return None


def corrupt(kind, header, records):
    """The journal's bytes damaged as `kind` says, and the index of the first damaged record
    (None: no damage, every record must read back; -1: the header)."""
    records = list(records)
    if kind == "record byte":
        at = random.randrange(len(records))
        record = bytearray(records[at])
        where = random.randrange(len(record) - 1)  # never the newline: that is a torn record
        record[where] ^= random.choice([0x01, 0x20, 0x40])
        records[at] = bytes(record)
        return header + b"".join(records), at
    if kind == "header text byte":
        damaged = bytearray(header)
        damaged[random.randrange(len(b"spvtune-cache-journal 1 "))] ^= 0x01
        return bytes(damaged) + b"".join(records), -1
    if kind == "header base digit":
        # Another hex digit: the header still has its form, and names another file.
        damaged = bytearray(header)
        at = len(b"spvtune-cache-journal 1 ") + random.randrange(16)
        damaged[at] = random.choice([d for d in b"0123456789abcdef" if d != damaged[at]])
        return bytes(damaged) + b"".join(records), -1
    if kind == "garbage line":
        return header + b"".join(records) + b"garbage that is no record\n", len(records)
    if kind == "garbage, no newline":
        return header + b"".join(records) + b"0123456789abcdef 12 {\"torn", None
    if kind == "reordered":
        random.shuffle(records)
        return header + b"".join(records), None
    if kind == "duplicated":
        at = random.randrange(len(records))
        records.insert(random.randrange(len(records) + 1), records[at])
        return header + b"".join(records), None
    raise ValueError(kind)


CORRUPTIONS = ["record byte", "header text byte", "header base digit", "garbage line", "garbage, no newline", "reordered",
               "duplicated"]


def corrupted_journals(binary, writer, rounds, keys):
    """Part 5: for each corruption kind, `rounds` damaged copies of one journal."""
    # The first save writes the file, the later ones append a record each to its journal.
    template = tempfile.mkdtemp(prefix="crash-corrupt-")
    subprocess.run([writer, template, WRITER_WINNERS[0], "-"] + [str(k) for k in range(keys)],
                   capture_output=True, check=True)
    in_file = set()
    journals = list(Path(template).glob("*.json.journal"))
    if len(journals) != 1:
        sys.exit(f"crash-consistency: expected one journal in {template}, found {journals}")
    header, records = journal_records(journals[0].read_bytes())
    all_keys = cache_entries(binary, template)
    journal_keys = {record_key(r) for r in records}
    in_file = all_keys - journal_keys
    failures = 0
    for kind in CORRUPTIONS:
        refused = kept = lost = 0
        for _ in range(rounds):
            directory = tempfile.mkdtemp(prefix="crash-corrupt-")
            shutil.rmtree(directory)
            shutil.copytree(template, directory)
            journal = next(Path(directory).glob("*.json.journal"))
            damaged, first_bad = corrupt(kind, header, records)
            journal.write_bytes(damaged)
            cache_file = journal.with_suffix("")
            shown = subprocess.run([binary, "cache", "show", str(cache_file), "--json"],
                                   capture_output=True, text=True)
            if first_bad is None:
                # No damage: every entry reads back, and nothing is kept aside.
                present = cache_entries(binary, directory)
                lost += len(all_keys - (present or set()))
                shutil.rmtree(directory)
                continue
            if shown.returncode == 2 and journal.name in shown.stderr:
                refused += 1
            # The next save (a store that writes) keeps the damaged journal aside whole.
            subprocess.run([writer, directory, WRITER_WINNERS[0], "-", str(keys + 1)],
                           capture_output=True)
            aside = list(Path(directory).glob("*.json.journal.corrupt-*"))
            kept_bytes = aside[0].read_bytes() if len(aside) == 1 else b""
            kept += kept_bytes == damaged
            present = set()
            for path in Path(directory).glob("*.json"):
                shown = subprocess.run([binary, "cache", "show", str(path), "--json"],
                                       capture_output=True, text=True)
                if shown.returncode == 0:
                    for lists in json.loads(shown.stdout)["tuners"].values():
                        for candidate_list in lists.values():
                            present.update(e["printed_key"]
                                           for e in candidate_list["entries"].values())
            # The file keeps its own entries, the records before the damage and the new save;
            # every intact record is in the file or in the journal kept aside.
            lost += len((in_file | {f"n={keys + 1}"}) - present)
            intact = [r for i, r in enumerate(records) if not (kind == "record byte"
                                                                and i == first_bad)]
            lost += sum(record_key(r) not in present and r not in kept_bytes for r in intact)
            shutil.rmtree(directory)
        damage = kind not in ("garbage, no newline", "reordered", "duplicated")
        print(f"journal corrupted ({kind}): {rounds} copies"
              + (f", {refused} refused by cache show, {kept} kept aside whole" if damage else "")
              + f", {lost} entries lost (intact records in neither the file nor a journal kept "
              f"aside)")
        failures += lost + (rounds - refused) + (rounds - kept) if damage else lost
    shutil.rmtree(template)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=14)
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--writer-rounds", type=int, default=20)
    parser.add_argument("--compacts", type=int, default=40)
    parser.add_argument("--corruptions", type=int, default=10)
    parser.add_argument("--only-corruptions", action="store_true",
                        help="run part 5 alone (it needs no device)")
    parser.add_argument("--build", default=str(ROOT / "build" / "default"))
    args = parser.parse_args()
    build = Path(args.build)
    binary = str(build / "app" / "spvtune")
    kernels = str(build / "cli_test_kernels")
    writer = str(build / "tests" / "cache" / "spvtune_cache_writer")
    with tempfile.TemporaryDirectory() as scratch:
        problem = Path(scratch) / "problem.json"
        problem.write_text(json.dumps(PROBLEM))
        if args.only_corruptions:
            sys.exit(1 if corrupted_journals(binary, writer, args.corruptions, 20) else 0)
        failures = kill_tune(binary, str(problem), kernels, args.kills)
        failures += concurrent_tunes(binary, kernels, args.rounds)
        torn_rounds = 0
        for _ in range(args.writer_rounds):
            lost, torn = concurrent_writers(binary, writer, args.keys)
            failures += lost
            torn_rounds += torn
        print(f"{args.writer_rounds} rounds of killed writers, {torn_rounds} of them with a "
              f"journal record cut short")
        failures += kill_compact(binary, writer, args.compacts, args.keys)
        failures += corrupted_journals(binary, writer, args.corruptions, 20)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
