#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz) into SEED_DIR/<target>/.

Usage: scripts/fuzz-seeds.py SEED_DIR BUILD_DIR

Seeds come from what the repository already holds, made into files at fuzz time so that no
generated input (SPIR-V above all) is committed:
  problem     the shipped configs, the CLI tests' and invalid problems, the schema corpus and every
              problem file of the hostile corpus (tests/hostile/corpus.json, its specs expanded)
  cache       the schema corpus's cache files and the hostile corpus's cache files
  cache_readers  the cache seeds (both cache readers on one input)
  expression  every string value of the problem seeds (counts, dispatch sizes, constraints...)
  spirv       the kernels built in BUILD_DIR and the hostile corpus's SPIR-V files
  journal     journals of the schema corpus's valid cache entries, one record each: whole, torn,
              with a byte flipped, with garbage after them
  glsl_cache  GLSL cache entries of the SPIR-V kernels built in BUILD_DIR, whole and with an
              include that no longer reads the same ("@GLSLANG@": the fuzz target's glslang)
  recording   the small recorded spaces of recordings/, whole, cut off as a stopped Kernel Tuner
              run leaves its cache, and gzip-compressed (whole and cut off)
and, for each target, the inputs of past findings kept in tests/fuzz/regressions/<target>/.
"""

import copy
import gzip
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Nesting deeper than this only repeats what the parsers' depth limits already refuse; a seed of
# 100,000 levels would make every mutation of it slow.
MAX_SEED_DEPTH = 2000
# Seeds larger than this slow every run without adding coverage.
MAX_SEED_BYTES = 64 * 1024


class Seeds:
    def __init__(self, root):
        self.root = root

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if len(data) > MAX_SEED_BYTES:
            return
        directory = self.root / target
        directory.mkdir(parents=True, exist_ok=True)
        # Named by content, as libFuzzer names its own corpus files: duplicates collapse.
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def substitute(text, placeholders):
    for name, value in placeholders.items():
        text = text.replace("{" + name + "}", value)
    return text


def generated(value):
    """The hostile corpus's generated values: {rangeN}, {parensN}, {sumN}."""
    if isinstance(value, list):
        return [generated(item) for item in value]
    if isinstance(value, dict):
        return {key: generated(item) for key, item in value.items()}
    if isinstance(value, str) and value.endswith("}"):
        for kind in ("range", "parens", "sum"):
            if value.startswith("{" + kind):
                count = int(value[len(kind) + 1 : -1])
                if kind == "range":
                    return list(range(1, count + 1))
                if kind == "parens":
                    return "(" * count + "n" + ")" * count
                return "n" + "+1" * count
    return value


def unescape(token):
    return token.replace("~1", "/").replace("~0", "~")


def set_at(document, pointer, value):
    """As nlohmann::json's operator[] with a pointer: missing members are made, and an array
    index one past the end (or "-") appends."""
    tokens = [unescape(token) for token in pointer.split("/")[1:]]
    place = document
    for token in tokens[:-1]:
        place = place[int(token)] if isinstance(place, list) else place.setdefault(token, {})
    if isinstance(place, list):
        index = len(place) if tokens[-1] == "-" else int(tokens[-1])
        if index == len(place):
            place.append(value)
        else:
            place[index] = value
    else:
        place[tokens[-1]] = value


def remove_at(document, pointer):
    tokens = [unescape(token) for token in pointer.split("/")[1:]]
    place = document
    for token in tokens[:-1]:
        place = place[int(token)] if isinstance(place, list) else place[token]
    del place[int(tokens[-1]) if isinstance(place, list) else tokens[-1]]


def contents(spec, bases, placeholders):
    """The bytes of a hostile-corpus file spec (the note at the top of corpus.json), or None
    for specs that are not plain files (directories, FIFOs, links) or do not apply here."""
    if "base" in spec:
        document = copy.deepcopy(bases[spec["base"]])
        for step in spec.get("patch", []):
            pointer = substitute(step[1], placeholders)
            if step[0] == "set":
                set_at(document, pointer, generated(step[2]))
            else:
                remove_at(document, pointer)
        sentinel = "@@DEEP@@"
        if "deep" in spec:
            set_at(document, substitute(spec["deep"][0], placeholders), sentinel)
        text = json.dumps(document, indent=2)
        for old, new in spec.get("replace", []):
            if old not in text:
                return None
            text = text.replace(old, new, 1)
        if "deep" in spec:
            _, open_text, inner, close_text, depth = spec["deep"]
            depth = min(depth, MAX_SEED_DEPTH)
            text = text.replace(
                '"' + sentinel + '"', open_text * depth + inner + close_text * depth, 1
            )
        return text.encode()
    if "text" in spec:
        return substitute(spec["text"], placeholders).encode("utf-8", "surrogatepass")
    if "hex" in spec:
        return bytes.fromhex(spec["hex"])
    if "nest" in spec:
        depth = min(spec["depth"], MAX_SEED_DEPTH)
        return (spec["nest"][0] * depth + spec["nest"][1] * depth).encode()
    if "copy" in spec:
        source = pathlib.Path(substitute(spec["copy"], placeholders))
        if not source.is_file():
            return None
        data = source.read_bytes()
        return data[: spec.get("truncate", len(data))]
    return None


def strings_of(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_of(item)


def fnv1a(data):
    """base::Fnv1a over bytes."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def journal_seeds(seeds, cache):
    """One record per entry of `cache` (a cache document), as cache_journal.cpp writes them."""
    records = []
    for tuner, lists in cache["tuners"].items():
        for checksum, entry_list in lists.items():
            for key, entry in entry_list["entries"].items():
                one = dict(entry_list, entries={key: entry})
                payload = json.dumps({tuner: {checksum: one}}, separators=(",", ":"))
                data = payload.encode()
                records.append(f"{fnv1a(data):016x} {len(data)} ".encode() + data + b"\n")
    header = b"spvtune-cache-journal 1 " + b"0" * 16 + b"\n"  # the target puts its base here
    whole = header + b"".join(records)
    seeds.add("journal", whole)
    seeds.add("journal", whole[:-7])  # the last record torn by a crash
    seeds.add("journal", whole + b"garbage\n")
    flipped = bytearray(whole)
    flipped[len(header) + 30] ^= 0x20
    seeds.add("journal", bytes(flipped))


def glsl_cache_seeds(seeds, build):
    """Entries as glsl_cache.cpp writes them, of the SPIR-V kernels built in `build`."""
    for path in sorted(build.glob("kernels/*.spv"))[:4]:
        data = path.read_bytes()
        words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data) - 3, 4)]
        digest = fnv1a(b"".join(word.to_bytes(8, "little") for word in words))
        entry = {"format": 1, "glslang": "@GLSLANG@", "includes": [],
                 "digest": f"{digest:016x}", "words": words}
        seeds.add("glsl_cache", json.dumps(entry))
        entry["includes"] = [{"path": str(path), "digest": "0" * 16}]
        seeds.add("glsl_cache", json.dumps(entry))


def recording_seeds(seeds):
    """Kernel Tuner caches as Kernel Tuner writes them (an entry a line), a few points each."""
    for path in sorted(ROOT.glob("recordings/*_lavapipe.json")):
        cache = json.loads(path.read_text())
        entries = list(cache.pop("cache").items())[:24]
        head = json.dumps(cache)[:-1] + ',\n"cache": {\n'
        lines = [json.dumps(key) + ": " + json.dumps(entry) for key, entry in entries]
        whole = head + ",\n".join(lines) + "\n}\n}\n"
        stopped = head + "".join(line + ",\n" for line in lines[:-1]) + lines[-1][:40]
        for text in (whole, stopped):
            seeds.add("recording", text)
            seeds.add("recording", gzip.compress(text.encode(), mtime=0))
        seeds.add("recording", gzip.compress(whole.encode(), mtime=0)[:-9])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    seeds = Seeds(pathlib.Path(sys.argv[1]))
    build = pathlib.Path(sys.argv[2])

    problem_texts = []
    for pattern in (
        "configs/*.json",
        "tests/cli/problems/*.json",
        "tests/problem/invalid/*.json",
        "tests/problem/schema_corpus/problem/*.json",
    ):
        for path in sorted(ROOT.glob(pattern)):
            problem_texts.append(path.read_bytes())
    for path in sorted(ROOT.glob("tests/problem/schema_corpus/cache/*.json")):
        seeds.add("cache", path.read_bytes())

    # The hostile corpus: its "cache" base is made by a tune at test time; the schema corpus's
    # valid cache, renamed to the corpus problem's tuner, stands in for it.
    corpus = json.loads((ROOT / "tests/hostile/corpus.json").read_text())
    bases = dict(corpus["bases"])
    cache = json.loads((ROOT / "tests/problem/schema_corpus/cache/valid-base.json").read_text())
    cache["tuners"] = {"scale-test": cache["tuners"].pop("saxpy")}
    bases["cache"] = cache
    checksum = next(iter(cache["tuners"]["scale-test"]))
    placeholders = {
        "case": "case",
        "casecache": "case/cache",
        "cache": "cache",
        "cachefile": "cache.json",
        "cachekey": "cache",
        "checksum": checksum,
        "entry": next(iter(cache["tuners"]["scale-test"][checksum]["entries"])),
        "kernels": str(build / "fuzz_kernels"),
    }
    for case in corpus["cases"]:
        if "problem" in case:
            data = contents(case["problem"], bases, placeholders)
            if data is not None:
                problem_texts.append(data)
        if "cachefile" in case:
            data = contents(case["cachefile"], bases, placeholders)
            if data is not None:
                seeds.add("cache", data)
        for name, spec in case.get("files", {}).items():
            data = contents(spec, bases, placeholders)
            if data is None:
                continue
            if name.endswith(".spv"):
                seeds.add("spirv", data)
            elif name.endswith(".json"):
                problem_texts.append(data)

    for text in problem_texts:
        seeds.add("problem", text)
        try:
            document = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        for string in strings_of(document):
            seeds.add("expression", string)

    for pattern in ("kernels/*.spv", "fuzz_kernels/*.spv"):
        for path in sorted(build.glob(pattern)):
            seeds.add("spirv", path.read_bytes())

    journal_seeds(seeds, cache)
    glsl_cache_seeds(seeds, build)
    recording_seeds(seeds)

    # Both cache readers read what the cache parser reads.
    for path in sorted((seeds.root / "cache").iterdir()):
        seeds.add("cache_readers", path.read_bytes())

    for directory in sorted((ROOT / "tests/fuzz/regressions").glob("*")):
        for path in sorted(directory.iterdir()):
            seeds.add(directory.name, path.read_bytes())

    for directory in sorted(seeds.root.iterdir()):
        print(f"fuzz-seeds: {directory.name}: {len(list(directory.iterdir()))} seeds")


if __name__ == "__main__":
    main()
