"""The worker process that runs one page: started by `rune.literate.isolation`.

It reads requests from its stdin pipe and answers on its stdout pipe, one JSON
object a line, then gives the page's blocks neither: their stdin is
``/dev/null`` and what bypasses ``sys.stdout`` (``os.write(1, ...)``, child
processes) goes to stderr, so nothing a block does can garble the answers.

Requests: first ``{"text", "path", "sys_path", "timeout", "shell_directory"}``
(the page; the parent makes and removes the directory its shell commands run in), then
``{"run": i}`` for each python block wanted, in page order. Answers:
``{"start": line, "timeout": seconds}`` before each step runs (so the parent
can time it and name it), ``{"result": i, ...}`` when block ``i`` is judged.
At the end of its requests the worker exits at once, without waiting for
threads a block left running.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    _give_blocks_no_terminal_streams()
    job = json.loads(requests.readline())
    sys.path[:] = job["sys_path"]
    from .docstrings import parse_source
    from .runner import PageRunner

    page = parse_source(job["text"], job["path"])
    blocks = page.python_blocks
    timeouts = {block.line: block.timeout for block in blocks}

    def announce(line: int) -> None:
        seconds = timeouts.get(line) or page.timeout or job["timeout"]
        _send(answers, {"start": line, "timeout": seconds})

    runner = PageRunner(page, on_step=announce, interrupts_are_failures=True,
                        shell_directory=job.get("shell_directory"))
    for request in iter(requests.readline, ""):
        index = json.loads(request)["run"]
        result = runner.run_block(blocks[index])
        _send(answers, {
            "result": index, "outcome": result.outcome.name, "output": result.output,
            "traceback": result.traceback, "notes": result.notes, "reason": result.reason,
        })
    runner.finish()  # teardown blocks, if the page's last block was not asked for
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)  # threads a block left running must not keep the page alive


def _give_blocks_no_terminal_streams() -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)


def _send(answers, message: dict) -> None:
    answers.write(json.dumps(message) + "\n")
    answers.flush()


if __name__ == "__main__":
    main()
