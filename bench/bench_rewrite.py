"""Dry-run cost of the real plan against a floor and against rope / LibCST, plus scaling.

    .venv/bin/python bench/bench_rewrite.py [--readme]
    .venv/bin/python bench/bench_rewrite.py --floor-only [--readme]

Run by hand, never in tests. Input: the real SGLang 0.5.15 wheel tree (tests/realtrees.py,
downloaded once and cached) and plans/sglang-0.5.15-jit-to-ops.yaml. Every contender runs
in its own process under /usr/bin/time (wall, user+sys CPU, peak RSS = largest single
process of its tree), on the same input, in the same run:

- main:   `migrate PLAN --dry-run --repo COPY`
- floor:  read every file of the tree + libcst-parse only the files that get an Edit
          (that set is computed once beforehand with prepare + plan_changes)
- rope:   rope.refactor.move.MoveModule on a sample of the plan's moves, each on a fresh
          copy; the per-move mean is extrapolated to the plan's move count (an estimate)
- libcst: `python -m libcst.tool codemod rename.RenameCommand` for one move over the tree
- scaling: prepare + plan_changes with the plan truncated to its first N moves

rope and libcst run from a separate venv (~/.cache/migrate/bench-venv, created on first
use with `pip install rope libcst`), never the project's. No timing asserts: the targets
are reported as met or not. --readme writes the Markdown into bench/README.md (only this
script's own section is replaced).

--floor-only runs just the dry run and its floor (the issue-12 target: within 2x), three
times each, interleaved (main, floor, main, floor, ...), and reports each pair's ratio and
the median; its README section is its own (`bench_rewrite_floor`).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

PLAN = ROOT / "plans" / "sglang-0.5.15-jit-to-ops.yaml"
PY = ROOT / ".venv" / "bin" / "python"
MIGRATE = ROOT / ".venv" / "bin" / "migrate"
PEER_VENV = Path.home() / ".cache" / "migrate" / "bench-venv"
PEER_PY = PEER_VENV / "bin" / "python"
VERSION = "0.5.15"
SCALES = (1, 10, 100)  # plus "all"
# (source path, existing-or-created destination package): moves of the plan whose leaf
# name does not change, which is all rope's MoveModule can express.
ROPE_SAMPLE = (
    ("sglang/jit_kernel/norm.py", "sglang/kernels/ops/layernorm"),
    ("sglang/jit_kernel/rope.py", "sglang/kernels/ops/attention"),
    ("sglang/jit_kernel/hadamard.py", "sglang/kernels/ops/quantization"),
)
ROPE_TIMEOUT = 150
LIBCST_OLD, LIBCST_NEW = "sglang.jit_kernel.norm", "sglang.kernels.ops.layernorm.norm"
LIBCST_TIMEOUT = 240
LEGACY = "sglang.jit_kernel"
BEGIN = "<!-- bench_rewrite:begin -->"
END = "<!-- bench_rewrite:end -->"
FLOOR_BEGIN = "<!-- bench_rewrite_floor:begin -->"
FLOOR_END = "<!-- bench_rewrite_floor:end -->"
FLOOR_ROUNDS = 3


# ---------------------------------------------------------------- child processes


def child_plan(plan: str, repo: str, out: str) -> None:
    """prepare + plan_changes; then (untimed) the candidate count and the edited files."""
    from migrate.pipeline import prepare
    from migrate.rewrite import scan
    from migrate.rewrite.engine import plan_changes

    t0 = time.perf_counter()
    prep = prepare(plan, repo)
    t1 = time.perf_counter()
    cs = plan_changes(prep)
    t2 = time.perf_counter()
    cands = scan.candidates(prep.index, prep.relocation, prep.plan)
    back = {m.new: m.old for m in cs.moves}
    edited = sorted({back.get(e.path, e.path) for e in cs.edits})
    result = {
        "prepare_s": t1 - t0,
        "plan_changes_s": t2 - t1,
        "moves": len(prep.plan.moves),
        "file_moves": len(cs.moves),
        "candidates": len(cands),
        "edits": len(cs.edits),
        "edited": edited,
    }
    Path(out).write_text(json.dumps(result))


def child_floor(tree: str, listing: str) -> None:
    """Read every file of the tree, then libcst-parse the listed (edited) Python files."""
    import libcst

    t0 = time.perf_counter()
    nbytes = nfiles = 0
    for dirpath, _, names in os.walk(tree):
        for name in names:
            nbytes += len(Path(dirpath, name).read_bytes())
            nfiles += 1
    t1 = time.perf_counter()
    parsed = 0
    for rel in json.loads(Path(listing).read_text()):
        if rel.endswith(".py"):
            libcst.parse_module(Path(tree, rel).read_bytes())
            parsed += 1
    t2 = time.perf_counter()
    print(
        json.dumps(
            {
                "files": nfiles,
                "bytes": nbytes,
                "parsed": parsed,
                "read_s": t1 - t0,
                "parse_s": t2 - t1,
            }
        )
    )


def child_rope(repo: str, src: str, dest: str) -> None:
    """One rope MoveModule (analysis + performing it) on a fresh copy."""
    from rope.base.project import Project
    from rope.refactor.move import MoveModule

    t0 = time.perf_counter()
    project = Project(repo, ropefolder=None)
    mover = MoveModule(project, project.get_resource(src))
    changes = mover.get_changes(project.get_resource(dest))
    t1 = time.perf_counter()
    project.do(changes)
    t2 = time.perf_counter()
    project.close()
    touched = len(changes.get_changed_resources())
    print(json.dumps({"analyse_s": t1 - t0, "do_s": t2 - t1, "changed": touched}))


# ---------------------------------------------------------------- orchestration


def timed(cmd: list[str], timeout: float | None = None, cwd: Path | None = None) -> dict:
    """Run cmd under /usr/bin/time; wall, CPU, max RSS (MiB), rc, stdout, stderr."""
    fd, tfile = tempfile.mkstemp(suffix=".time")
    os.close(fd)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        ["/usr/bin/time", "-f", "%e %U %S %M", "-o", tfile, *cmd],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        timed_out = True
    wall = time.perf_counter() - t0
    lines = Path(tfile).read_text().strip().splitlines()
    os.unlink(tfile)
    fields = lines[-1].split() if lines and not timed_out else ["0", "0", "0", "0"]
    return {
        "wall": wall,
        "cpu": float(fields[1]) + float(fields[2]),
        "rss_mib": int(fields[3]) / 1024,
        "rc": proc.returncode,
        "timed_out": timed_out,
        "stdout": out,
        "stderr": err,
    }


def peer_venv() -> dict:
    if not PEER_PY.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
    probe = "import rope, libcst.tool"
    if subprocess.run([str(PEER_PY), "-c", probe], capture_output=True).returncode != 0:
        subprocess.run([str(PEER_PY), "-m", "pip", "install", "-q", "rope", "libcst"], check=True)
    versions = subprocess.run(
        [
            str(PEER_PY),
            "-c",
            "import importlib.metadata as m; print(m.version('rope'), m.version('libcst'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {"rope": versions[0], "libcst": versions[1]}


def truncated_plan(n: int, where: Path, operators_only: bool = False) -> Path:
    """The real plan with only its first n moves (it has no path moves, symbols or delete).

    operators_only drops the move of the legacy package itself first, so that each move
    relocates one operator module or package and nothing else."""
    import yaml

    data = yaml.safe_load(PLAN.read_text())
    extra = set(data) - {"version", "roots", "moves"}
    assert not extra, f"truncation does not handle {extra}"
    if operators_only:
        data["moves"] = [m for m in data["moves"] if m["from"] != LEGACY]
    data["moves"] = data["moves"][:n]
    out = where / f"plan-{n}{'-ops' if operators_only else ''}.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


def run_plan_child(plan: Path, repo: Path, where: Path) -> dict:
    out = where / f"{plan.stem}.json"
    r = timed([str(PY), __file__, "--child-plan", str(plan), str(repo), str(out)])
    if r["rc"] != 0:
        raise SystemExit(f"plan child failed: {r['stderr'][-2000:]}")
    r.update(json.loads(out.read_text()))
    return r


def fresh_copy(tree: Path, where: Path) -> Path:
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(tree, where, ignore=shutil.ignore_patterns(".complete"))
    return where


def ensure_package(repo: Path, rel: str) -> None:
    parts = Path(rel).parts
    for i in range(1, len(parts) + 1):
        d = repo.joinpath(*parts[:i])
        d.mkdir(exist_ok=True)
        (d / "__init__.py").touch()


def main() -> None:
    from realtrees import sglang_tree

    tree = sglang_tree(VERSION)
    versions = peer_venv()
    tmp = Path(tempfile.mkdtemp(prefix="bench-rewrite-"))
    notes: list[str] = []
    try:
        copy = fresh_copy(tree, tmp / "copy")
        total = len(__import__("yaml").safe_load(PLAN.read_text())["moves"])

        # scaling (its "all" run also gives the edited-file set for the floor)
        scaling = []
        for n in [*[s for s in SCALES if s < total], total]:
            plan = truncated_plan(n, tmp) if n < total else PLAN
            scaling.append(("first N", n, run_plan_child(plan, copy, tmp)))
        full = scaling[-1][2]
        for n in (1, 10, 30, total - 1):
            plan = truncated_plan(n, tmp, operators_only=True)
            scaling.append((f"first N without `{LEGACY}`", n, run_plan_child(plan, copy, tmp)))
        listing = tmp / "edited.json"
        listing.write_text(json.dumps(full["edited"]))

        main_run = timed([str(MIGRATE), str(PLAN), "--dry-run", "--repo", str(copy)])
        if main_run["rc"] != 0:
            notes.append(f"dry run exit {main_run['rc']}: {main_run['stderr'][-500:]}")
        floor = timed([str(PY), __file__, "--child-floor", str(copy), str(listing)])
        floor.update(json.loads(floor["stdout"]))

        rope_runs = []
        for src, dest in ROPE_SAMPLE:
            rcopy = fresh_copy(tree, tmp / "rope")
            ensure_package(rcopy, dest)
            r = timed(
                [str(PEER_PY), __file__, "--child-rope", str(rcopy), src, dest],
                timeout=ROPE_TIMEOUT,
            )
            if r["rc"] == 0 and not r["timed_out"]:
                r.update(json.loads(r["stdout"].strip().splitlines()[-1]))
            rope_runs.append((src, dest, r))
        shutil.rmtree(tmp / "rope", ignore_errors=True)

        lcopy = fresh_copy(tree, tmp / "libcst")
        libcst_run = timed(
            [
                str(PEER_PY),
                "-m",
                "libcst.tool",
                "codemod",
                "rename.RenameCommand",
                "-j",
                str(os.cpu_count() or 1),
                "--no-format",
                "--hide-progress",
                "--old_name",
                LIBCST_OLD,
                "--new_name",
                LIBCST_NEW,
                str(lcopy / "sglang"),
            ],
            timeout=LIBCST_TIMEOUT,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    text = render(
        versions, load, total, scaling, full, main_run, floor, rope_runs, libcst_run, notes
    )
    print(text)
    if "--readme" in sys.argv:
        write_section(ROOT / "bench" / "README.md", text)


def render(versions, load, total, scaling, full, main_run, floor, rope_runs, libcst_run, notes):
    def row(name, r, extra=""):
        if r["timed_out"]:
            rows.append(f"| {name} | > {r['wall']:.0f} | n/a | n/a | {extra} |")
            return
        rows.append(f"| {name} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss_mib']:.0f} | {extra} |")

    rows: list[str] = []
    row(
        "main: `migrate PLAN --dry-run`",
        main_run,
        f"{total} moves, {full['edits']} edits in "
        f"{len(full['edited'])} files (exit {main_run['rc']})",
    )
    row(
        "floor: read all + libcst-parse edited",
        floor,
        f"read {floor['files']} files ({floor['bytes'] / 2**20:.0f} MiB) in "
        f"{floor['read_s']:.1f} s, parsed {floor['parsed']} .py in {floor['parse_s']:.1f} s",
    )
    for src, dest, r in rope_runs:
        if r["timed_out"]:
            extra = f"timed out after {ROPE_TIMEOUT} s (lower bound)"
        elif r["rc"] != 0:
            extra = "failed: " + r["stderr"].strip().splitlines()[-1][:150].replace("|", "/")
        else:
            extra = (
                f"analyse {r['analyse_s']:.1f} s + do {r['do_s']:.1f} s, "
                f"{r['changed']} files changed"
            )
        row(f"rope MoveModule `{src}` -> `{dest}/`", r, extra)
    per_move = None
    if rope_runs:
        walls = [
            ROPE_TIMEOUT if r["timed_out"] else r["wall"]
            for _, _, r in rope_runs
            if r["timed_out"] or r["rc"] == 0
        ]
        if walls:
            per_move = sum(walls) / len(walls)
            bound = "at least " if any(r["timed_out"] for _, _, r in rope_runs) else ""
            rows.append(
                f"| rope, **extrapolated** to the plan: mean per move x {total} moves | "
                f"{bound}{per_move * total:.0f} | | | estimate, not measured |"
            )
    lc_tail = (libcst_run["stderr"] + libcst_run["stdout"]).strip().splitlines()
    lc_summary = "; ".join(line.strip(" -") for line in lc_tail[-5:] if line.strip())
    if libcst_run["timed_out"]:
        lc_summary = f"timed out after {LIBCST_TIMEOUT} s (lower bound)"
    row(
        f"libcst RenameCommand `{LIBCST_OLD}` -> `{LIBCST_NEW}` (1 move)",
        libcst_run,
        lc_summary.replace("|", "/")[:200],
    )

    main_wall = main_run["wall"]
    vs_floor = main_wall / floor["wall"]
    lines = [
        BEGIN,
        "## rewrite: dry run vs floor, rope and LibCST (`bench/bench_rewrite.py`)",
        "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
        f"({os.cpu_count()} cores, {platform.machine()}), Python {platform.python_version()}, "
        f"rope {versions['rope']}, libcst {versions['libcst']} (peers in their own venv); "
        f"`uptime` at the end: `{load}`. Other processes may have been running: each number "
        "is one measurement, and the ratios compare contenders of the same run on the same "
        "input (SGLang 0.5.15 wheel tree, `plans/sglang-0.5.15-jit-to-ops.yaml`).",
        "",
        "Peak RSS is that of the largest single process of the contender's tree "
        "(`/usr/bin/time` %M); the dry run parses in a pool of "
        f"{min(os.cpu_count() or 1, 8)} worker processes, the floor in one process.",
        "",
        "| contender | wall s | CPU s | peak RSS MiB | detail |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "Targets:",
        "",
        f"- dry run within 2x the floor: {'met' if vs_floor <= 2 else '**NOT met**'} "
        f"({vs_floor:.1f}x wall, {main_run['cpu'] / max(floor['cpu'], 1e-9):.1f}x CPU)",
    ]
    if per_move is not None:
        ratio = per_move * total / main_wall
        bound = "at least " if any(r["timed_out"] for _, _, r in rope_runs) else ""
        lines.append(
            f"- at least 100x faster than rope per plan (extrapolated): "
            f"{'met' if ratio >= 100 else '**NOT met**'} ({bound}{ratio:.0f}x)"
        )
    else:
        lines.append("- at least 100x faster than rope: not measured (every rope move failed)")
    lines.append(
        f"- peak RSS under 1 GB: {'met' if main_run['rss_mib'] < 1000 else '**NOT met**'} "
        f"({main_run['rss_mib']:.0f} MiB largest process)"
    )
    lc_ratio = f"{libcst_run['wall'] / main_wall:.1f}x"
    if libcst_run["timed_out"]:
        lc_ratio = f"more than {lc_ratio} (killed at {LIBCST_TIMEOUT} s)"
    lines.append(
        f"- one LibCST RenameCommand move vs the whole dry run ({total} moves): "
        f"{lc_ratio} the dry run's wall time"
    )
    lines += [
        "",
        "rope: each sampled move runs on a fresh copy (Project creation + MoveModule analysis "
        "+ performing it); MoveModule can only move a module into a package under its own "
        "name, so the sample takes moves of the plan that keep their leaf. The plan-wide "
        "figure multiplies the mean of the moves that completed by the plan's move count: "
        "an extrapolation, not a measurement. rope also edits only imports and uses, not "
        "strings, prose or packaging lists, so it does less than the dry run plans.",
    ]
    lines += [
        "",
        "Scaling: `prepare` + `plan_changes` with the plan truncated to its first N moves "
        f"(the plan has {total}; the 10th move is the legacy package itself, "
        "`sglang.jit_kernel` -> `sglang.kernels.jit`). Candidates: files the scan hands "
        "on (`scan.candidates`); edited: files with at least one Edit.",
        "",
        "The second series drops the package move, so each move relocates one operator "
        "module or package (the tree stays 3338 files throughout).",
        "",
        "| plan | moves | file moves | candidate files | edited files | edits | prepare s "
        "| plan_changes s | process wall s | peak RSS MiB |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, n, r in scaling:
        lines.append(
            f"| {label} | {n} | {r['file_moves']} | {r['candidates']} | {len(r['edited'])} "
            f"| {r['edits']} "
            f"| {r['prepare_s']:.1f} | {r['plan_changes_s']:.1f} | {r['wall']:.1f} "
            f"| {r['rss_mib']:.0f} |"
        )
    lines += ["", *notes, END] if notes else ["", END]
    return "\n".join(lines) + "\n"


def write_section(readme: Path, text: str, begin: str = BEGIN, end: str = END) -> None:
    old = readme.read_text() if readme.exists() else "# Benchmarks\n\n"
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        new = head + text.rstrip("\n") + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    readme.write_text(new)


def main_floor() -> None:
    """The dry run against its floor only, FLOOR_ROUNDS interleaved rounds."""
    from realtrees import sglang_tree

    tree = sglang_tree(VERSION)
    tmp = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    try:
        copy = fresh_copy(tree, tmp / "copy")
        full = run_plan_child(PLAN, copy, tmp)
        listing = tmp / "edited.json"
        listing.write_text(json.dumps(full["edited"]))
        rounds = []
        for _ in range(FLOOR_ROUNDS):
            main_run = timed([str(MIGRATE), str(PLAN), "--dry-run", "--repo", str(copy)])
            if main_run["rc"] not in (0, 1):  # 1: it ran and reports rule findings
                out = (main_run["stdout"] + main_run["stderr"])[-800:]
                raise SystemExit(f"dry run exit {main_run['rc']}: {out}")
            floor = timed([str(PY), __file__, "--child-floor", str(copy), str(listing)])
            floor.update(json.loads(floor["stdout"]))
            rounds.append((main_run, floor))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    rows = []
    ratios = []
    for i, (m, f) in enumerate(rounds, 1):
        ratio = m["wall"] / f["wall"]
        ratios.append((ratio, m["cpu"] / max(f["cpu"], 1e-9)))
        rows.append(
            f"| {i} | {m['wall']:.1f} | {m['cpu']:.1f} | {m['rss_mib']:.0f} | {f['wall']:.1f} "
            f"| {f['cpu']:.1f} | {ratio:.2f}x | {ratios[-1][1]:.2f}x |"
        )
    wall_med = sorted(r for r, _ in ratios)[len(ratios) // 2]
    cpu_med = sorted(c for _, c in ratios)[len(ratios) // 2]
    f0 = rounds[0][1]
    text = "\n".join(
        [
            FLOOR_BEGIN,
            "## rewrite: dry run vs floor only (`bench/bench_rewrite.py --floor-only`)",
            "",
            f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
            f"({os.cpu_count()} cores), Python {platform.python_version()}; `uptime` at the "
            f"end: `{load}`. Input: SGLang {VERSION} wheel tree, "
            f"`plans/sglang-0.5.15-jit-to-ops.yaml` ({full['moves']} moves, "
            f"{full['edits']} edits in {len(full['edited'])} files). Main: `migrate PLAN "
            f"--dry-run` (CLI, whole process; exit {rounds[0][0]['rc']}"
            f"{': organization-rule errors reported' if rounds[0][0]['rc'] == 1 else ''}). "
            "Floor: read every file of the tree "
            f"({f0['files']} files, {f0['bytes'] / 2**20:.0f} MiB) + libcst-parse each "
            f"edited Python file once ({f0['parsed']} files). {FLOOR_ROUNDS} rounds, "
            "main and floor interleaved so that both see the same load.",
            "",
            "| round | main wall s | main CPU s | main RSS MiB | floor wall s | floor CPU s "
            "| wall ratio | CPU ratio |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            f"Target: dry run within 2x the floor: {'met' if wall_med <= 2 else '**NOT met**'} "
            f"(median {wall_med:.2f}x wall, {cpu_med:.2f}x CPU).",
            FLOOR_END,
        ]
    )
    print(text)
    if "--readme" in sys.argv:
        write_section(ROOT / "bench" / "README.md", text, FLOOR_BEGIN, FLOOR_END)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child-plan"]:
        child_plan(*sys.argv[2:5])
    elif sys.argv[1:2] == ["--child-floor"]:
        child_floor(*sys.argv[2:4])
    elif sys.argv[1:2] == ["--child-rope"]:
        child_rope(*sys.argv[2:5])
    elif sys.argv[1:] in ([], ["--readme"]):
        main()
    elif sys.argv[1:2] == ["--floor-only"] and sys.argv[2:] in ([], ["--readme"]):
        main_floor()
    else:
        print(__doc__)
