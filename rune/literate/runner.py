"""Run a page's blocks in one namespace and judge each against its out block.

pytest, ``check`` and ``promote`` all run pages through [`PageRunner`][rune.literate.PageRunner],
so a block passes or fails for the same reason everywhere; they run it in a
worker process (`rune.literate.isolation`), reused from page to page.

Each block runs with the working directory restored after it, and with
output routed by thread: what a thread started by an earlier block prints
while this block runs is not this block's output (it is noted instead).

Each block is compiled under the page's path with its code moved down to its
own line of the page, so tracebacks and syntax errors name markdown lines.
The page's code (with container indentation removed) is put in ``linecache``
under that path, so tracebacks also show the right source text.
"""

from __future__ import annotations

import codecs
import enum
import functools
import io
import linecache
import os
import shutil
import subprocess
import tempfile
import threading
import traceback
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field

from .compare import diff_outputs, escape_surrogates, normalize_output, output_matches
from .parser import (
    ClearNamespace,
    Fence,
    Page,
    Prelude,
    PythonBlock,
    SetupBlock,
    Step,
    TeardownBlock,
)
from .page import line_texts
from .session import (
    SHELL_LANGUAGES,
    Example,
    example_matches,
    is_prompt,
    judge_example,
    render_output,
    render_session,
)

# The headline of a python block that fails to compile because it holds a session.
_PROMPTS_IN_PYTHON = ("holds >>> prompts, which are not Python: write it as a ```pycon "
                      "block (a session: each prompt's expected output right after it)")


class Outcome(enum.Enum):
    """How a python block fared; its value says it in words.

    >>> from rune.literate import Outcome
    >>> Outcome.MISSING_OUT.value
    'printed output but has no out block; run promote'
    """

    PASSED = "passed"
    SKIPPED = "skipped"
    MISMATCH = "printed output that differs from its out block"
    MISSING_OUT = "printed output but has no out block; run promote"
    RAISED = "raised an exception"
    DID_NOT_RAISE = "is marked `<!-- literate: raises -->` but raised no exception"
    SETUP_FAILED = "was not run because a setup block failed"
    TIMED_OUT = "did not finish within its timeout"
    CRASHED = "ended the process running the page"
    TEARDOWN_FAILED = "passed, but a teardown block of its page raised"
    NOT_RUN = "was not run"


# Outcomes that promote can fix by rewriting out blocks.
PROMOTABLE = frozenset({Outcome.MISMATCH, Outcome.MISSING_OUT})


@dataclass
class BlockResult:
    r"""The result of running one python block.

    Attributes:
      block: the python block.
      outcome: how it fared (an [`Outcome`][rune.literate.Outcome]).
      path: the page's path as reports show it.
      output: what the block printed; for a block marked ``raises`` it ends
        with the exception's last traceback line. It is what ``promote`` writes.
      traceback: the traceback of an exception the block raised, else None.
      notes: lines to add to the report (an earlier block that failed...).
      reason: the report's headline when it says more than the outcome
        (the timeout's length, why a block was not run), else None.
      error: the exception the block raised, in the process that ran it
        (where a debugger can use it), else None.

    >>> from rune.literate import PageRunner, parse_page
    >>> [result] = PageRunner(parse_page("```python\nprint(6 * 7)\n```\n")).run_all()
    >>> result.outcome.name, result.output, result.failed
    ('MISSING_OUT', '42\n', True)
    """

    block: PythonBlock
    outcome: Outcome
    path: str
    output: str = ""
    traceback: str | None = None
    notes: list[str] = field(default_factory=list)
    reason: str | None = None
    # The exception itself, in the process that ran the block (a debugger's way in).
    error: BaseException | None = field(default=None, repr=False, compare=False)

    @property
    def failed(self) -> bool:
        """True unless the block passed or was skipped."""
        return self.outcome not in (Outcome.PASSED, Outcome.SKIPPED)

    @property
    def location(self) -> str:
        """``path:line`` of the block's opening fence."""
        return f"{self.path}:{self.block.line}"

    def report(self) -> str:
        r"""A readable account of a failure: where, why, and a diff or a traceback.

        >>> from rune.literate import PageRunner, parse_page
        >>> page = parse_page("```python\nprint(1 + 1)\n```\n\n```out\n3\n```\n", "page.md")
        >>> [result] = PageRunner(page).run_all()
        >>> print(result.report())
        page.md:1: the python block printed output that differs from its out block
        --- expected (page.md:5)
        +++ actual
        @@ -1 +1 @@
        -3
        +2
        (run promote to accept the actual output)
        """
        block = self.block
        headline = self.reason or self.outcome.value
        if block.session is not None and self.outcome is Outcome.MISMATCH:
            headline = "printed output that differs from its expected output"
        lines = [f"{self.location}: the {block.kind} {headline}"]
        if self.outcome is Outcome.MISMATCH:
            expected = block.out or block.fence  # a session holds its own expected output
            lines.append(
                diff_outputs(
                    expected.body, self.output, f"expected ({self.path}:{expected.line})", "actual"
                )
            )
            lines.append("(run promote to accept the actual output)")
        elif self.outcome is Outcome.MISSING_OUT:
            lines.append(diff_outputs("", self.output, "expected (no out block)", "actual"))
        elif self.outcome is Outcome.DID_NOT_RAISE and normalize_output(self.output):
            lines.append("It printed:")
            lines.append(_indent(normalize_output(self.output)))
        elif self.traceback:
            lines.append(self.traceback.rstrip("\n"))
            if self.outcome is Outcome.RAISED and normalize_output(self.output):
                lines.append("It printed, before raising:")
                lines.append(_indent(normalize_output(self.output)))
        lines.extend(self.notes)
        return "\n".join(lines)


def exception_summary(error: BaseException) -> str:
    """The last line of a traceback for ``error``: ``ValueError: message``.

    This is what an out block of a ``raises`` block ends with.

    Args:
      error: an exception.

    Raises:
      TypeError: error is not an exception.

    >>> exception_summary(ValueError("bad value"))
    'ValueError: bad value'
    """
    if not isinstance(error, BaseException):
        raise TypeError(f"exception_summary: error must be an exception, got "
                        f"{type(error).__name__}")
    lines = traceback.format_exception_only(type(error), error)
    if isinstance(error, SyntaxError):
        lines = lines[-1:]  # the lines before show the file and a caret
    return escape_surrogates("".join(lines).rstrip("\n"))


class PageRunner:
    r"""Runs the steps of one page, in order, in one namespace.

    Asking for a block whose earlier steps have not run (pytest ``-k``,
    ``--lf``) first runs those steps quietly, so the namespace is what the
    page builds up to that block.

    Args:
      page: the parsed page (from [`parse_page`][rune.literate.parse_page] or
        [`read_page`][rune.literate.read_page]).
      namespace: the dict the blocks run in; default a new one. Pass Sybil's
        document namespace to share it with Sybil.
      display_path: names the page in reports and tracebacks (default:
        ``page.path``).
      on_step: called with each step's line just before the step runs (the
        worker process tells its parent what runs now).
      interrupts_are_failures: a KeyboardInterrupt raised by a block is that
        block's failure (in a worker process, where the user's Ctrl-C reaches
        the parent only); otherwise it stops the run.
      shell_directory: where the page's shell commands run; by default a
        temporary directory made when the first one runs and removed at the
        page's end. Whoever passes one removes it (a worker's parent, which
        outlives a worker killed at a timeout).
      debugger: a ``pdb.Pdb`` that runs each block's code from its first line
        (``pytest --trace``), or None.

    Raises:
      TypeError: page is not a Page, or namespace not a dict or None.

    >>> from rune.literate.parser import parse_page
    >>> runner = PageRunner(parse_page("```python\nx = 2\n```\n\n```python\nprint(x * 3)\n```\n"))
    >>> result = runner.run_all()[-1]
    >>> result.outcome.name, result.output
    ('MISSING_OUT', '6\n')
    """

    def __init__(
        self,
        page: Page,
        namespace: dict | None = None,
        display_path: str | None = None,
        on_step: Callable[[int], None] | None = None,
        interrupts_are_failures: bool = False,
        shell_directory: str | None = None,
        debugger=None,
    ) -> None:
        if not isinstance(page, Page):
            raise TypeError(f"PageRunner: page must be a Page (from parse_page or read_page), "
                            f"got {type(page).__name__}")
        if namespace is not None and not isinstance(namespace, dict):
            raise TypeError(f"PageRunner: namespace must be a dict or None, got "
                            f"{type(namespace).__name__}")
        self.page = page
        self.path = display_path or page.path
        self.namespace = {} if namespace is None else namespace
        self.namespace.setdefault("__name__", "__main__")
        # Taken when the first block runs, after Sybil's setup and fixtures
        # have filled the namespace: `clear` goes back to it.
        self._baseline: dict | None = None
        self._positions = {id(step): index for index, step in enumerate(page.steps)}
        blocks = page.python_blocks
        self._last_block = blocks[-1] if blocks else None  # its end ends the page
        self._next_step = 0
        self._failed_setup: tuple[SetupBlock, str] | None = None
        self._failed_prelude: tuple[Prelude, str] | None = None
        self._torn_down = False
        self._shell_directory = shell_directory  # where the page's shell commands run
        self._owns_shell_directory = shell_directory is None
        self._on_step = on_step or (lambda line: None)
        self.debugger = debugger
        self._caught = BaseException if interrupts_are_failures else (Exception, SystemExit,
                                                                      GeneratorExit)
        self._register_source()

    def run_all(self) -> list[BlockResult]:
        r"""Run every step of the page; one result per python block, in page order.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n")
        >>> [(result.outcome.name, result.output) for result in PageRunner(page).run_all()]
        [('PASSED', ''), ('MISSING_OUT', '42\n')]
        """
        return [self.run_block(block) for block in self.page.python_blocks]

    def run_block(self, block: PythonBlock) -> BlockResult:
        r"""Run ``block`` (after any earlier steps not yet run) and judge its output.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n\n"
        ...                   "```out\n42\n```\n")
        >>> result = PageRunner(page).run_block(page.python_blocks[1])  # x = 6 runs first
        >>> result.outcome.name, result.output
        ('PASSED', '42\n')
        """
        if self._baseline is None:
            self._run_preludes()  # before the baseline: `clear` keeps what they define
            self._baseline = dict(self.namespace)
        if self._failed_prelude is not None:
            prelude, trace = self._failed_prelude
            return BlockResult(block, Outcome.SETUP_FAILED, self.path,
                               reason=f"was not run because the prelude {prelude.path} raised",
                               traceback=trace)
        position = self._positions[id(block)]
        notes: list[str] = []
        for step in self.page.steps[self._next_step : position]:
            self._run_quietly(step, notes)
        self._next_step = max(self._next_step, position + 1)
        result = self._judge(block)
        result.notes.extend(notes)
        if block is self._last_block:
            self._report_teardown(result, self.finish())
        return result

    def _run_preludes(self) -> None:
        """Run the page's preludes in its namespace; remember the first that raises."""
        for prelude in self.page.preludes:
            # An mtime of None keeps linecache.checkcache() from dropping the entry.
            linecache.cache[prelude.path] = (len(prelude.code), None,
                                             prelude.code.splitlines(keepends=True), prelude.path)
            compile_prelude = functools.partial(compile, prelude.code, prelude.path, "exec",
                                                dont_inherit=True)
            _, error, _ = self._run_code(compile_prelude)
            if error is not None:
                self._failed_prelude = (prelude, self._traceback(error, prelude.path))
                return

    def finish(self) -> list[tuple[TeardownBlock, str]]:
        r"""Run the page's teardown blocks, once: each teardown that raised, with
        its traceback. Called after the page's last block, and by the worker
        when it is asked for no more blocks.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 1\n```\n\n```python\nprint(x)\n```\n\n"
        ...                   "<!-- literate: teardown\n```python\nraise OSError('disk full')\n"
        ...                   "```\n-->\n")
        >>> runner = PageRunner(page)
        >>> _ = runner.run_block(page.python_blocks[0])
        >>> [(teardown, traceback)] = runner.finish()  # the page stops before its last block
        >>> traceback.splitlines()[-1]
        'OSError: disk full'
        >>> runner.finish()  # once only
        []
        """
        if self._torn_down:
            return []
        self._torn_down = True
        if self._shell_directory is not None and self._owns_shell_directory:
            shutil.rmtree(self._shell_directory, ignore_errors=True)
        failures = []
        for step in self.page.steps:
            if isinstance(step, TeardownBlock) and not step.skip:
                _, error, _ = self._execute(step.fence)
                if error is not None:
                    failures.append((step, self._traceback(error)))
        return failures

    def _report_teardown(self, result: BlockResult, failures) -> None:
        for teardown, trace in failures:
            account = f"The teardown block at line {teardown.line} raised:\n{trace}"
            if result.failed:
                result.notes.append("Note: " + account)
            else:
                result.outcome, result.traceback = Outcome.TEARDOWN_FAILED, account

    def _skips(self, block: PythonBlock) -> bool | BaseException:
        """Whether a skip directive skips the block now (its condition evaluated
        in the page namespace), or the exception the condition raised."""
        if not block.skip or block.skip_condition is None:
            return block.skip
        try:
            return bool(eval(compile(block.skip_condition, self.path, "eval"),  # noqa: S307
                             self.namespace))
        except self._caught as error:  # noqa: BLE001
            return error

    def _judge(self, block: PythonBlock) -> BlockResult:
        skips = self._skips(block)
        if isinstance(skips, BaseException):
            return BlockResult(
                block, Outcome.RAISED, self.path,
                reason=f"was not run: its skip condition at line {block.skipped_by} raised "
                       f"{exception_summary(skips)}",
                traceback=self._traceback(skips),
            )
        if skips:
            return BlockResult(block, Outcome.SKIPPED, self.path)
        if self._failed_setup is not None:
            setup, trace = self._failed_setup
            return BlockResult(
                block,
                Outcome.SETUP_FAILED,
                self.path,
                traceback=(f"The setup block at line {setup.line} raised:\n{trace}"),
            )
        if block.session is not None:
            return self._run_session(block)
        printed, error, late = self._execute(block.fence)
        result = self._outcome(block, printed, error)
        if late:
            result.notes.append(
                f"Note: a thread started by an earlier block printed while this one ran; "
                f"that output is no block's output and was left out: {late!r}"
            )
        return result

    def _outcome(self, block: PythonBlock, printed: str, error: BaseException | None):
        if error is not None and not block.raises:
            prompts = isinstance(error, SyntaxError) and any(
                is_prompt(line.lstrip()) for line in block.fence.body_lines)
            return BlockResult(block, Outcome.RAISED, self.path, printed, self._traceback(error),
                               reason=_PROMPTS_IN_PYTHON if prompts else None, error=error)
        if block.raises:
            if error is None:
                return BlockResult(block, Outcome.DID_NOT_RAISE, self.path, printed)
            if printed and not printed.endswith("\n"):
                printed += "\n"
            printed += exception_summary(error) + "\n"
        if block.nondeterministic:
            outcome = Outcome.PASSED
        elif block.out is None:
            outcome = Outcome.MISSING_OUT if normalize_output(printed) else Outcome.PASSED
        else:
            outcome = (
                Outcome.PASSED if output_matches(block.out.body, printed) else Outcome.MISMATCH
            )
        return BlockResult(block, outcome, self.path, printed)

    def _run_quietly(self, step: Step, notes: list[str]) -> None:
        """Run a step that is not itself under test; remember what went wrong."""
        if isinstance(step, TeardownBlock) or (
                step.skip if not isinstance(step, PythonBlock) else self._skips(step) is not False):
            return  # teardown blocks run at the end (finish)
        if isinstance(step, ClearNamespace):
            self.namespace.clear()
            self.namespace.update(self._baseline)
            self._failed_setup = None
        elif isinstance(step, SetupBlock):
            _, error, _ = self._execute(step.fence)
            if error is not None:
                self._failed_setup = (step, self._traceback(error))
        elif self._failed_setup is None and step.session is not None:
            result = self._run_session(step)
            if result.outcome is Outcome.RAISED:
                notes.append(f"Note: the earlier pycon session at line {step.line}, run first to "
                             f"prepare this block, raised an exception it does not show")
        elif self._failed_setup is None:
            _, error, _ = self._execute(step.fence)
            if error is not None and not step.raises:
                notes.append(
                    f"Note: the earlier block at line {step.line}, run first to prepare "
                    f"this one, raised {exception_summary(error)}"
                )

    def _run_session(self, block: PythonBlock) -> BlockResult:
        """Run a pycon session's examples in order and judge each one's output.

        Its output is the session with the expected lines of each example that
        printed something else replaced (what promote writes); an exception the
        session does not show stops it and fails it.
        """
        self._on_step(block.line)
        new_wants: list[list[str] | None] = []
        for example in block.session:
            if block.fence.language in SHELL_LANGUAGES:
                new_wants.append(self._judge_command(example))
                continue
            if example.skipped:  # doctest's SKIP: not run, its expected lines kept
                new_wants.append(None)
                continue
            compile_example = functools.partial(self._compile_example, block.fence, example)
            printed, error, _ = self._run_code(compile_example)
            if error is not None and not example.expects_exception:
                return BlockResult(block, Outcome.RAISED, self.path, printed,
                                   self._traceback(error))
            new_wants.append(judge_example(example, printed, error))
        output = render_session(block.fence.body_lines, block.session, new_wants)
        passed = block.nondeterministic or all(want is None for want in new_wants)
        return BlockResult(block, Outcome.PASSED if passed else Outcome.MISMATCH, self.path,
                           output)

    def _judge_command(self, example: Example) -> list[str] | None:
        """Run a shell session's command; its new expected lines, or None if it matched.

        Each command runs in its own shell, in the page's temporary directory,
        stdin empty and stderr merged into its output; a non-zero exit status
        ends the output with ``[STATUS]``, as in cram. The block's timeout
        stops it with the worker. Its output is what it wrote by the time the
        shell exits: a file, not a pipe, so that ``cmd &`` does not wait for
        cmd to close its end.
        """
        if self._shell_directory is None:
            self._shell_directory = tempfile.mkdtemp(prefix="literate-shell-")
        shell = shutil.which("bash") or "sh"
        with tempfile.TemporaryFile() as output:
            completed = subprocess.run(
                [shell, "-c", example.source], cwd=self._shell_directory,
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, check=False,
            )
            output.seek(0)
            # Decoded as text=True would: the locale's encoding, universal newlines.
            printed = io.TextIOWrapper(output, errors="replace").read()
        if completed.returncode:
            printed += ("" if printed.endswith("\n") or not printed else "\n")
            printed += f"[{completed.returncode}]\n"
        return None if example_matches(example, printed) else render_output(printed)

    def _execute(self, fence: Fence) -> tuple[str, BaseException | None, str]:
        """Run a fence's code: what it printed, the exception it raised (or None),
        and what threads of earlier blocks printed meanwhile."""
        self._on_step(fence.line)
        return self._run_code(lambda: self._compile(fence))

    def _run_code(self, compile_code) -> tuple[str, BaseException | None, str]:
        """Compile and run code in the namespace, as `_execute` describes."""
        capture = _BlockOutput()
        directory = os.getcwd()
        try:
            code = compile_code()
            with redirect_stdout(capture):
                if self.debugger is not None:
                    self.debugger.runcall(exec, code, self.namespace)
                else:
                    exec(code, self.namespace)  # noqa: S102 -- running the page's code is the point
        # Any exception, SystemExit and asyncio.CancelledError included, is the
        # block's result to report; only the user's KeyboardInterrupt stops the run.
        except self._caught as error:  # noqa: BLE001
            return capture.text(), error, capture.late.getvalue()
        finally:
            os.chdir(directory)  # a block's chdir must not move later blocks or the caller
        return capture.text(), None, capture.late.getvalue()

    def _compile(self, fence: Fence):
        """Compile a fence's code with each line numbered as its line of the page."""
        return self._compile_at(fence.code, fence.line, "exec")

    def _compile_example(self, fence: Fence, example: Example):
        """Compile a session's example as the interpreter does (an expression's
        value is printed), numbered as its lines of the page."""
        return self._compile_at(example.source, fence.line + example.first, "single")

    def _compile_at(self, source: str, offset: int, mode: str):
        # Blank lines in front put each line at its line of the page: cheaper
        # than moving a parsed tree (ast.increment_lineno walks every node), and
        # a syntax error's own message ("detected at line N") names the page's line.
        return compile("\n" * offset + source, self.path, mode, dont_inherit=True)

    def _traceback(self, error: BaseException, path: str | None = None) -> str:
        # Drop the runner's own frames: the story starts in the page (or prelude).
        frames = error.__traceback__
        while frames is not None and frames.tb_frame.f_code.co_filename != (path or self.path):
            frames = frames.tb_next
        return escape_surrogates("".join(traceback.format_exception(type(error), error, frames)))

    def _register_source(self) -> None:
        lines = [text + "\n" for text in line_texts(self.page.text)]
        for step in self.page.steps:
            if isinstance(step, PythonBlock) and step.session is not None:
                for example in step.session:
                    for offset, code_line in enumerate(example.source.split("\n")[:-1]):
                        lines[step.fence.line + example.first + offset] = code_line + "\n"
            elif isinstance(step, (PythonBlock, SetupBlock, TeardownBlock)):
                for offset, code_line in enumerate(step.fence.body_lines):
                    lines[step.fence.line + offset] = code_line + "\n"
        # An mtime of None keeps linecache.checkcache() from dropping the entry.
        linecache.cache[self.path] = (len(self.page.text), None, lines, self.path)


class _BlockOutput(io.TextIOBase):
    """sys.stdout while a block runs: what the block's threads print is its output.

    Threads alive when the block starts belong to earlier blocks; what they
    print now goes to ``late``, so it is never counted as this block's output.
    Bytes written to ``buffer`` are output too, decoded as UTF-8 (a page's
    encoding; bytes that are not UTF-8 become U+FFFD), in order with the text.
    """

    encoding = "utf-8"

    def __init__(self) -> None:
        self.printed = io.StringIO()
        self.late = io.StringIO()
        self._earlier = frozenset(threading.enumerate()) - {threading.current_thread()}
        self.buffer = _BlockOutputBytes(self)

    def writable(self) -> bool:
        return True

    def text(self) -> str:
        """What the block printed, a character left half written by ``buffer`` included."""
        self.buffer.finish()
        return self.printed.getvalue()

    def write(self, text: str) -> int:
        late = self._earlier and threading.current_thread() in self._earlier
        target = self.late if late else self.printed
        target.write(escape_surrogates(text))
        return len(text)


class _BlockOutputBytes(io.RawIOBase):
    """``sys.stdout.buffer`` while a block runs: bytes decoded into its `_BlockOutput`."""

    def __init__(self, text: _BlockOutput) -> None:
        super().__init__()
        self._text = text
        # Incremental: a character may come in two writes.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        data = memoryview(data).cast("B")
        self._text.write(self._decoder.decode(data.tobytes()))
        return len(data)

    def flush(self) -> None:
        """Nothing is held back but a character's first bytes, kept for the next write."""

    def finish(self) -> None:
        self._text.write(self._decoder.decode(b"", final=True))


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.split("\n"))
