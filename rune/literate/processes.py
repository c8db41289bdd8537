"""The processes a page started: found through /proc and ended with it (Linux).

A worker makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``):
a process a block starts stays below the worker even when it starts a new
session and its parent exits, so ``descendants(worker)`` finds every process
the page started, daemons included. Elsewhere (macOS) there is no such
thing: ``descendants`` finds nothing and only the worker's own process group
is killed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_CHILD_SUBREAPER = 36
LINUX = sys.platform.startswith("linux")


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants; whether that worked."""
    if not LINUX:
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """The direct children of process ``pid`` (all its threads'), or [] if unknown."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.extend(int(child) for child in listing.read().split())
        except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN
            return _children_by_scanning(pid)
        except OSError:
            continue
    return found


def _children_by_scanning(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, from every /proc/N/stat (slower)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                # "pid (command) state ppid ...": the command may hold spaces and ")".
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(name))
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, parents before their children."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        below = [child for parent in frontier for child in children(parent)]
        found.extend(below)
        frontier = below
    return found


def command_line(pid: int) -> str:
    """How process ``pid`` was started, for messages (its pid if unknown)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as source:
            words = source.read().split(b"\0")
    except OSError:
        return f"pid {pid}"
    text = " ".join(word.decode(errors="replace") for word in words if word)
    return f"pid {pid} ({text[:80]})" if text else f"pid {pid}"


def kill_descendants(pid: int) -> list[int]:
    """Stop, then kill, every process below ``pid``; the pids killed.

    Each is stopped first so that none can start another while the tree is
    walked; the walk repeats until it finds nothing new.
    """
    killed: list[int] = []
    seen: set[int] = set()
    while True:
        fresh = [child for child in descendants(pid) if child not in seen]
        if not fresh:
            break
        for child in fresh:
            seen.add(child)
            _signal(child, signal.SIGSTOP)
        killed.extend(fresh)
    for child in killed:
        _signal(child, signal.SIGKILL)
    return killed


def reap_children() -> None:
    """Wait for every child of this process to end (after `kill_descendants`).

    A subreaper also inherits the grandchildren whose parent was killed, so
    this waits until no child is left at all.
    """
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass
