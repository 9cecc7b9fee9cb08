#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Converts a recorded bench file of format 1 (rows of their own, written by
the benches before they became experiment descriptions, issue 29) into a run
of format 2 (src/experiments/framework/ks-run.h), once, so that the page, the
CLI's plot and --overlay load it as any other recorded run.

Usage: tools/convert-bench-run.py OLD.json NEW.json

bench tridiag ("experiment": "bench-tridiag"), bench gauss ("experiment":
"bench-gauss") and bench cg ("bench": "cg") are known.  What the old rows did not record (the
work-group, the size solved at) is "nan"; the derived columns keep the values
the bench computed (vs_cusparse, of_triad, gbs), as loaded files do."""
import json
import re
import sys

NAN = "nan"


def number(v):
    return NAN if v is None else v


def device_of(text, devices, triad):
    """("NVIDIA H200 (cuda:0)", ...) -> its index in devices, added if new."""
    m = re.fullmatch(r"(.*) \(([a-z]+:[0-9:]+|host)\)", text or "")
    name, did = (m.group(1), m.group(2)) if m else (text or "?", text or "?")
    for i, d in enumerate(devices):
        if d["id"] == did:
            if triad and "triad_gbs" not in d["info"]:
                d["info"]["triad_gbs"] = triad
            return i
    backend = did.split(":")[0]
    devices.append({"id": did, "name": name,
                    # PoCL names its CPU devices after the LLVM target ("cpu-skylake-...").
                    "platform": "NVIDIA CUDA" if "NVIDIA" in name else
                                "Portable Computing Language" if re.match(r"(cpu|pthread)-", name) else None,
                    "driver": None, "backend": backend,
                    "info": {"triad_gbs": triad} if triad else {}})
    return len(devices) - 1


def run(old, experiment, title, settings, axes, devices, points):
    """The run's header around its points, as ks-run-json.c writes it."""
    return {"format": 2, "experiment": experiment, "title": title, "paper": "bench", "date": old["date"],
            "command": old["command"] + "  (%s, format 1; tools/convert-bench-run.py)" % experiment,
            "warmup": old["warmup"], "reps": old["reps"], "complete": True, "stop_reason": None,
            "points_planned": len(points), "settings": settings, "axes": axes,
            "devices": devices, "points": points}


def tridiag(old):
    devices, points = [], []
    for r in old["rows"]:
        dev = device_of(r["device"], devices, r.get("triad_gbs"))
        p = {"device": dev, "precision": old.get("precision", "float"), "pad": True, "n": r["n"],
             "systems": r["systems"], "triad": True, "method": r["method"]}
        if r.get("skipped"):
            p.update({"reps": 0, "error": r["skipped"]})
        else:
            ms = r["ms"]
            layout = number(r.get("layout_ms"))
            p.update({"time_ms": ms, "time_ms_min": ms, "time_ms_max": ms, "speedup": NAN,
                      "gbs": number(r.get("gbs")), "residual": number(r.get("residual")),
                      "solved_n": NAN, "local_size": NAN,
                      "layout_ms": layout, "layout_ms_min": layout, "layout_ms_max": layout,
                      "vs_cusparse": number(r.get("vs_cusparse")), "of_triad": number(r.get("of_triad")),
                      "reps": old["reps"], "error": None})
        points.append(p)
    methods = sorted({p["method"] for p in points}, key=[p["method"] for p in points].index)
    ns = sorted({p["n"] for p in points})
    systems = sorted({p["systems"] for p in points})
    settings = {"method": ",".join(methods), "n": ",".join(map(str, ns)), "pad": "true",
                "precision": old.get("precision", "float"), "systems": ",".join(map(str, systems)),
                "triad": "true"}
    axes = [a for a, v in (("n", ns), ("systems", systems), ("method", methods)) if len(v) > 1]
    return run(old, "bench-tridiag", "Tridiagonal solvers against cuSPARSE", settings, axes, devices, points)


def cg(old):
    devices, points = [], []
    for r in old["rows"]:
        dev = device_of(r["device"], devices, r.get("triad_gbs"))
        p = {"device": dev, "precision": old["precision"], "tol": old["tol"], "triad": True, "rows": r["rows"],
             "method": r["method"]}
        if r.get("skipped"):
            p.update({"reps": 0, "error": r["skipped"]})
        else:
            ms = r["iteration_ms"]
            p.update({"iteration_ms": ms, "iteration_ms_min": ms, "iteration_ms_max": ms,
                      "iterations": r["iterations"], "residual": r["residual"],
                      "bytes_per_row": r["bytes_per_row"], "gbs": r["gbs"],
                      "of_triad": r["of_triad"] or NAN,
                      # The old bench wrote 0 where no library ran.
                      "vs_library": r["vs_library"] or NAN, "reps": old["reps"], "error": None})
        points.append(p)
    methods = sorted({p["method"] for p in points}, key=[p["method"] for p in points].index)
    rows = sorted({p["rows"] for p in points})
    settings = {"method": ",".join(methods), "precision": old["precision"], "rows": ",".join(map(str, rows)),
                "tol": repr(old["tol"]), "triad": "true"}
    axes = [a for a, v in (("rows", rows), ("method", methods)) if len(v) > 1]
    return run(old, "bench-cg", "Conjugate gradients against the library", settings, axes, devices, points)


def gauss_method(text):
    """The old row's method label -> bench-gauss's method id."""
    for prefix, method in (("kernels, CUDA (graph)", "graph"), ("kernels", "kernels"), ("blocked", "blocked"),
                           ("cuSOLVER", "cusolver"), ("LAPACK", "lapack")):
        if text.startswith(prefix):
            return method
    sys.exit("bench gauss: unknown method %r" % text)


def gauss(old):
    """bench gauss rows -> bench-gauss points.  x_library follows the
    description's rule (this device's cuSOLVER at the same n, else its
    LAPACK); the old ratio was to cuSOLVER on whichever device ran it."""
    devices, points = [], []
    for r in old["rows"]:
        triad = r.get("bandwidth_gbs") or None
        dev = device_of(r["device"], devices, triad)
        p = {"device": dev, "precision": old.get("precision", "float"), "triad": bool(triad), "n": r["n"],
             "method": gauss_method(r["method"])}
        if r.get("skipped") or r.get("failed"):
            p.update({"reps": 0, "error": r.get("skipped") or "failed"})
        else:
            wall = r["wall_ms"]
            p.update({"wall_ms": wall, "wall_ms_min": wall, "wall_ms_max": wall,
                      "device_ms": r.get("device_ms") or NAN, "fwd_ms": r.get("fwd_ms") or NAN,
                      "residual": number(r.get("residual")), "x_library": NAN,
                      "fwd_gbs": r.get("fwd_gbs") or NAN, "of_triad": r.get("fraction") or NAN,
                      "reps": old["reps"], "error": None})
        points.append(p)
    for p in points:
        if p["error"] is not None:
            continue
        same = {q["method"]: q for q in points if q["device"] == p["device"] and q["n"] == p["n"] and q["error"] is None}
        lib = same.get("cusolver") or same.get("lapack")
        if lib is not None:
            p["x_library"] = p["wall_ms"] / lib["wall_ms"]
    methods = sorted({p["method"] for p in points}, key=[p["method"] for p in points].index)
    ns = sorted({p["n"] for p in points})
    settings = {"method": ",".join(methods), "n": ",".join(map(str, ns)),
                "precision": old.get("precision", "float"), "triad": "true"}
    axes = [a for a, v in (("n", ns), ("method", methods)) if len(v) > 1]
    return run(old, "bench-gauss", "Gauss against the libraries", settings, axes, devices, points)


CONVERTERS = {"bench-tridiag": tridiag, "bench-gauss": gauss, "cg": cg}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    old = json.load(open(argv[1]))
    kind = old.get("experiment") if old.get("format") == 1 else old.get("bench")
    if kind not in CONVERTERS:
        sys.exit("%s: not a format-1 bench tridiag, bench gauss or bench cg file" % argv[1])
    with open(argv[2], "w") as out:
        json.dump(CONVERTERS[kind](old), out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv)
