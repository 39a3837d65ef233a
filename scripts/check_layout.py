#!/usr/bin/env python3
"""Checks that every room (a folder with code) uses only the rooms its README allows.

Each room's README.md has one line `May use: a, b, c` (or `May use: nothing`) naming rooms by
their path from the repository root. This script fails (exit 1, one line per violation) when

  * a source file includes a header of a room that its room may not use (includes are by bare
    file name, so every header name must be unique across the rooms);
  * a library's CMake link list names a library of a room it may not use;
  * a room includes a system header kept to a few rooms (MPI, GMP, CUDA's runtime);
  * an independent room (audit/, which checks the solver's certificates) allows in its README
    more than the rooms it is kept to (INDEPENDENT);
  * a folder with sources has no README, or its README has no `May use:` line;
  * docs/architecture.md does not name a room, or a source file of a room (by its name, or
    its stem with `*` for a .hpp/.cpp pair: `instance*`).

Usage: scripts/check_layout.py [REPO]   (default: the repository this script is in)
"""
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h"}
# Rooms whose files are not checked against a README: tests and benchmarks may use any room.
UNCHECKED = {"tests", "bench"}
SKIPPED_TOP = {"build", ".git", "docs", "report", "slurm", "scripts", "cmake", ".ci"}
# System headers only some rooms may include (everything MPI in one place, as Mallob's comm
# module), and those some rooms may not (the problems' cores and the CUDA helpers link no GMP).
ONLY_IN = {"mpi.h": {"common/protocol"}}
NOT_IN = {name: {"common/base", "knapsack", "knapsack/gpu", "pcmax", "pcmax/gpu", "gpu/runtime",
                 "audit"}
          for name in ("gmp.h", "gmpxx.h")}
# Rooms kept apart from the search whatever their README says: `permbb audit` checks the
# solver's certificates with code of its own (docs/audit.md), so that a fault in the search
# cannot hide in the check. They may use at most these rooms.
INDEPENDENT = {"audit": {"common/base"}}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
MAY_USE = re.compile(r"^May use:\s*(.*)$", re.M | re.I)
ADD_LIBRARY = re.compile(r"add_library\((\w+)\s+(?:STATIC|INTERFACE|SHARED|OBJECT)?", re.M)
ALIAS = re.compile(r"add_library\(([\w:]+)\s+ALIAS\s+(\w+)\)")
LINK = re.compile(r"target_link_libraries\((\w+)([^)]*)\)", re.S)


def is_build_folder(path, repo):
    top = path.relative_to(repo).parts[0]
    return top.startswith("build") or top in SKIPPED_TOP or top.startswith(".")


def rooms_of(repo):
    """Every folder holding sources (not tests/bench) -> its path relative to repo."""
    rooms = set()
    for f in repo.rglob("*"):
        if f.suffix in SOURCE_SUFFIXES and f.is_file() and not is_build_folder(f, repo):
            room = f.parent.relative_to(repo).as_posix()
            if room.split("/")[0] not in UNCHECKED:
                rooms.add(room)
    return rooms


def allowed_rooms(repo, rooms, errors):
    allowed = {}
    for room in sorted(rooms):
        readme = repo / room / "README.md"
        if not readme.is_file():
            errors.append(f"{room}/: no README.md")
            continue
        match = MAY_USE.search(readme.read_text())
        if not match:
            errors.append(f"{room}/README.md: no 'May use:' line")
            continue
        names = [n.strip().strip("`").rstrip("/.") for n in match.group(1).split(",")]
        names = {n for n in names if n and n.lower() != "nothing"}
        for name in sorted(names - rooms):
            errors.append(f"{room}/README.md: 'May use' names {name}, which is not a room")
        for name in sorted(names - INDEPENDENT.get(room, names)):
            errors.append(f"{room}/README.md: 'May use' names {name}; {room}/ is kept "
                          f"independent of the search and may use only "
                          f"{', '.join(sorted(INDEPENDENT[room]))}")
        allowed[room] = names & rooms
    return allowed


def header_rooms(repo, rooms, errors):
    where = {}
    for room in sorted(rooms):
        for f in sorted((repo / room).iterdir()):
            if f.suffix in {".hpp", ".cuh", ".h"}:
                if f.name in where:
                    errors.append(f"{room}/{f.name}: header name also in {where[f.name]}/ "
                                  "(includes are by bare name: names must be unique)")
                where[f.name] = room
    return where


def check_includes(repo, rooms, allowed, where, errors):
    for room in sorted(rooms):
        for f in sorted((repo / room).iterdir()):
            if f.suffix not in SOURCE_SUFFIXES:
                continue
            text = f.read_text(errors="replace")
            for match in INCLUDE.finditer(text):
                kind, name = match.groups()
                line = text.count("\n", 0, match.start()) + 1
                at = f"{room}/{f.name}:{line}"
                if kind == "<":
                    if name in ONLY_IN and room not in ONLY_IN[name]:
                        errors.append(f"{at}: includes <{name}>, kept to "
                                      f"{', '.join(sorted(ONLY_IN[name]))}")
                    if room in NOT_IN.get(name, ()):
                        errors.append(f"{at}: includes <{name}>, which {room}/ may not use")
                    continue
                target = where.get(pathlib.PurePath(name).name)
                if kind == '"' and target and target != room and target not in allowed.get(room, ()):
                    errors.append(f"{at}: includes {name} from {target}/, which "
                                  f"{room}/README.md does not allow")


def library_rooms(repo, rooms):
    """CMake library names (and their permbb:: aliases) -> the room whose CMakeLists makes them."""
    owner = {}
    for cmake in repo.rglob("CMakeLists.txt"):
        if is_build_folder(cmake, repo) or cmake.parent == repo:
            continue
        room = cmake.parent.relative_to(repo).as_posix()
        text = cmake.read_text()
        for name in ADD_LIBRARY.findall(text):
            owner[name] = room
        for alias, real in ALIAS.findall(text):
            owner[alias] = owner.get(real, room)
    return owner


def within(room, folder):
    """Whether `room` is `folder` or lies under it (gpu/engine within gpu)."""
    return room == folder or room.startswith(folder + "/")


def uses_of(allowed, folder):
    """What a folder's libraries may link: its room's uses, or for a folder whose code lies in
    its subfolders (gpu/ builds one library of gpu/warp, gpu/kernels, gpu/engine) their union."""
    if folder in allowed:
        return allowed[folder]
    return set().union(*[uses for room, uses in allowed.items() if within(room, folder)])


def check_links(repo, rooms, allowed, errors):
    owner = library_rooms(repo, rooms)
    for cmake in sorted(repo.rglob("CMakeLists.txt")):
        if is_build_folder(cmake, repo) or cmake.parent == repo:
            continue
        folder = cmake.parent.relative_to(repo).as_posix()
        if folder.split("/")[0] in UNCHECKED:
            continue
        text = cmake.read_text()
        for target, rest in LINK.findall(text):
            source_room = owner.get(target, folder)
            uses = uses_of(allowed, source_room)
            for name in re.findall(r"permbb::\w+|permbb_\w+", rest):
                linked = owner.get(name)
                if linked and not within(linked, source_room) and not any(
                        within(u, linked) for u in uses):
                    errors.append(f"{folder}/CMakeLists.txt: {target} links {name} "
                                  f"({linked}/), which {source_room}/README.md does not allow")
            if "MPI::" in rest and source_room != "common/protocol":
                errors.append(f"{folder}/CMakeLists.txt: {target} links MPI outside "
                              "common/protocol")


def check_architecture(repo, rooms, errors):
    doc_path = repo / "docs" / "architecture.md"
    if not doc_path.is_file():
        errors.append("docs/architecture.md: missing")
        return
    doc = doc_path.read_text()
    for room in sorted(rooms):
        if room.split("/")[-1] + "/" not in doc:
            errors.append(f"docs/architecture.md: does not name the room {room}/")
        for f in sorted((repo / room).iterdir()):
            if f.suffix not in SOURCE_SUFFIXES:
                continue
            named = re.search(r"(?<![\w.])" + re.escape(f.stem) + r"(\*|\.\w+|\b)", doc)
            if not named:
                errors.append(f"docs/architecture.md: does not name {room}/{f.name}")


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else __file__).resolve()
    if repo.is_file():
        repo = repo.parent.parent
    errors = []
    rooms = rooms_of(repo)
    allowed = allowed_rooms(repo, rooms, errors)
    where = header_rooms(repo, rooms, errors)
    check_includes(repo, rooms, allowed, where, errors)
    check_links(repo, rooms, allowed, errors)
    check_architecture(repo, rooms, errors)
    for error in errors:
        print(f"check_layout: {error}")
    if errors:
        return 1
    print(f"check_layout: {len(rooms)} rooms, every include and link allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
