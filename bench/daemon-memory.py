#!/usr/bin/env python3
"""Where the listening daemon's resident memory is (issue 30), from the kernel's own accounts.

Starts glasses-audiod on the simulated glasses, listening (the simulated mic says "hey glasses"
and a command in a loop), reads /proc/PID at the given times and stops it with SIGTERM:

  bench/daemon-memory.py BINARY [--backend home-assistant|local] [--starts 3] [--at 12]
                                [--sections] [--timeline 12,30,60,90] [-- EXTRA DAEMON FLAGS]

- default: VmRSS and RssAnon, and Rss per component (the binary, each Foundation library,
  libswiftCore, the other files, anonymous mappings), each the median of --starts starts;
- --sections: for one start, per file its Rss split into Shared_Clean / Private_Clean /
  Private_Dirty (smaps), and for the binary and the Swift libraries the resident pages given to
  the ELF section that holds them (pagemap; "dirty" = copied on write: relocated data);
- --timeline: VmRSS and RssAnon of one start at several times (the steady state, not only 12 s).

Run it from the checkout (the daemon finds its models from the working directory).
"""
import argparse
import collections
import os
import re
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
import time

COMPONENTS = [
    ("ICU", "lib_FoundationICU"), ("Foundation", "/libFoundation.so"), ("Essentials", "libFoundationEssentials"),
    ("Internationalization", "libFoundationInternationalization"), ("swiftCore", "libswiftCore"),
]
SECTION_FILES = re.compile(r"libswiftCore|libFoundation|lib_FoundationICU")


class Daemon:
    """One listening daemon with a data directory of its own."""

    def __init__(self, binary, backend, extra):
        self.data = tempfile.mkdtemp(prefix="daemon-memory-")
        os.chmod(self.data, 0o700)
        flags = ["--backend", "simulated", "--listen", "true", "--assistant-backend", backend, "--http-port", "0",
                 "--wyoming-port", "0", "--esphome-port", "0", "--data-dir", self.data]
        self.process = subprocess.Popen([binary] + flags + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.started = time.monotonic()

    def wait_until(self, seconds):
        time.sleep(max(0.0, self.started + seconds - time.monotonic()))

    def status(self, key):
        text = open(f"/proc/{self.process.pid}/status").read()
        return int(re.search(rf"^{key}:\s+(\d+)", text, re.M).group(1)) / 1024

    def mappings(self):
        """smaps as a list of dicts: lo, hi, offset, path and every "kB" field."""
        maps, current = [], None
        for line in open(f"/proc/{self.process.pid}/smaps"):
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                parts = line.split()
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                current = {"lo": lo, "hi": hi, "offset": int(parts[2], 16), "path": parts[5] if len(parts) > 5 else ""}
                maps.append(current)
            else:
                key, _, value = line.partition(":")
                if value.strip().endswith("kB"):
                    current[key] = int(value.split()[0])
        return maps

    def pagemap(self, mapping):
        with open(f"/proc/{self.process.pid}/pagemap", "rb") as f:
            f.seek(mapping["lo"] // 4096 * 8)
            data = f.read((mapping["hi"] - mapping["lo"]) // 4096 * 8)
        return [struct.unpack_from("<Q", data, 8 * i)[0] for i in range(len(data) // 8)]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def component(path, binary_name):
    if not path or path.startswith("["):
        return "anon"
    if os.path.basename(path) == binary_name:
        return "binary"
    for name, pattern in COMPONENTS:
        if pattern in path:
            return name
    return "other files"


def components(binary, args):
    rows = []
    for start in range(args.starts):
        daemon = Daemon(binary, args.backend, args.extra)
        daemon.wait_until(args.at)
        row = collections.Counter({"VmRSS": daemon.status("VmRSS"), "RssAnon": daemon.status("RssAnon")})
        for mapping in daemon.mappings():
            row[component(mapping["path"], os.path.basename(binary))] += mapping.get("Rss", 0) / 1024
        daemon.stop()
        rows.append(row)
        print(f"start {start + 1}: " + "  ".join(f"{k} {v:.1f}" for k, v in row.items()), flush=True)
    keys = ["VmRSS", "RssAnon", "binary", "swiftCore", "Foundation", "Essentials", "Internationalization", "ICU",
            "other files", "anon"]
    print(f"median of {args.starts} ({args.backend}, {args.at:g} s, MB): "
          + "  ".join(f"{k} {statistics.median(r[k] for r in rows):.1f}" for k in keys))


def elf_sections(path):
    """(file offset, size, name) of each section that occupies the file and is loaded."""
    out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    sections = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if m and m.group(2) not in ("NOBITS", "NULL") and int(m.group(3), 16) != 0:
            sections.append((int(m.group(4), 16), int(m.group(5), 16), m.group(1)))
    return sections


def sections(binary, args):
    daemon = Daemon(binary, args.backend, args.extra)
    daemon.wait_until(args.at)
    maps = daemon.mappings()
    pages = {id(m): daemon.pagemap(m) for m in maps
             if m["path"] and (os.path.basename(m["path"]) == os.path.basename(binary) or SECTION_FILES.search(m["path"]))}
    print(f"VmRSS {daemon.status('VmRSS'):.1f} MB, RssAnon {daemon.status('RssAnon'):.1f} MB at {args.at:g} s")
    daemon.stop()
    per_file = collections.defaultdict(collections.Counter)
    for m in maps:
        name = os.path.basename(m["path"]) if m["path"] and not m["path"].startswith("[") else (m["path"] or "[anon]")
        for field in ("Rss", "Shared_Clean", "Private_Clean", "Private_Dirty"):
            per_file[name][field] += m.get(field, 0)
    print(f"\n{'MB':40s} {'Rss':>7s} {'ShClean':>8s} {'PrClean':>8s} {'PrDirty':>8s}")
    for name, c in sorted(per_file.items(), key=lambda kv: -kv[1]["Rss"])[:25]:
        print(f"{name[:40]:40s} {c['Rss'] / 1024:7.2f} {c['Shared_Clean'] / 1024:8.2f} {c['Private_Clean'] / 1024:8.2f} "
              f"{c['Private_Dirty'] / 1024:8.2f}")
    by_section = collections.defaultdict(collections.Counter)
    known = {}
    for m in maps:
        if id(m) not in pages:
            continue
        layout = known.setdefault(m["path"], elf_sections(m["path"]))
        for i, entry in enumerate(pages[id(m)]):
            if not entry >> 63 & 1:
                continue
            offset = m["offset"] + i * 4096
            # A page holding several sections goes to the one covering most of it.
            best, covered = "(between sections)", 0
            for start, size, name in layout:
                overlap = min(start + size, offset + 4096) - max(start, offset)
                if overlap > covered:
                    best, covered = name, overlap
            kind = "file" if entry >> 61 & 1 else "dirty"
            by_section[os.path.basename(m["path"])][(best, kind)] += 4
    print("\nresident pages by ELF section (KB; dirty = copied on write)")
    for name, c in sorted(by_section.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"{name}: {sum(c.values()) / 1024:.2f} MB")
        for (section, kind), kb in c.most_common(10):
            print(f"  {kb:7d} {kind:5s} {section}")


def timeline(binary, args):
    daemon = Daemon(binary, args.backend, args.extra)
    for at in (float(t) for t in args.timeline.split(",")):
        daemon.wait_until(at)
        print(f"{at:5.0f} s  VmRSS {daemon.status('VmRSS'):6.1f} MB  RssAnon {daemon.status('RssAnon'):6.1f} MB", flush=True)
    daemon.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--backend", default="home-assistant")
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--at", type=float, default=12)
    parser.add_argument("--sections", action="store_true")
    parser.add_argument("--timeline")
    parser.add_argument("extra", nargs="*", help="more daemon flags, after --")
    args = parser.parse_args()
    if args.sections:
        sections(args.binary, args)
    elif args.timeline:
        timeline(args.binary, args)
    else:
        components(args.binary, args)


if __name__ == "__main__":
    main()
