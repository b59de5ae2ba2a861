"""The local CPython executor's loop: JSON lines in on stdin, JSON lines out on file descriptor 3.

Started by main (``src/main/services/python/cpython-channel.ts``) as ``python -u -m tableqa.serve
[--memory-mb N]``. Programs run in this process with the runtime library, as in Pyodide, but with the
user's own interpreter and no sandbox: this executor is opt-in and labelled as such. It speaks the same
messages as a Pyodide worker (``PythonHost`` in ``src/shared/python-host.ts``): ``ready``, ``loaded``
after each table, ``started``, ``qa``, ``result``, and ``tampered`` when the interpreter no longer
matches the snapshot taken at boot, in which case the program is not run.

A table comes as a line ``{"type": "table", "tableId": ..., "bytes": N}`` followed by N bytes of
UTF-8 JSON: a payload of hundreds of MB is neither escaped into a JSON string by main nor parsed twice here.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import time
from typing import IO, Any, TextIO

from tableqa import host


def _limit_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # not on Windows
        return
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def apply_table_message(message: dict[str, Any], link: Link | None = None) -> None:
    """Load or forget a table as main asks; a load is acknowledged with ``loaded``."""
    if message.get("type") == "table":
        # Tables always arrive as a length line followed by their bytes (see Link.receive).
        host.load_table(message["tableId"], message["payload"])
        if link is not None:
            link.send({"type": "loaded", "tableId": message["tableId"]})
    else:
        host.drop_table(message["tableId"])


class Link:
    """The pipe pair to main; the program's own stdin is not this one."""

    def __init__(self, incoming: IO[bytes], outgoing: TextIO) -> None:
        self.incoming = incoming
        self.outgoing = outgoing

    def send(self, message: dict[str, Any]) -> None:
        self.outgoing.write(json.dumps(message) + "\n")
        self.outgoing.flush()

    def receive(self) -> dict[str, Any] | None:
        """The next message; a table's payload bytes, when they follow the line, under ``payload``."""
        line = self.incoming.readline()
        if not line:
            return None
        message: dict[str, Any] = json.loads(line)
        size = message.get("bytes")
        if isinstance(size, int):
            payload = self.incoming.read(size)
            if len(payload) != size:
                return None
            message["payload"] = payload
        return message


def main(argv: list[str]) -> int:
    """Serve runs until stdin closes."""
    started = time.perf_counter()
    if "--memory-mb" in argv:
        _limit_memory(int(argv[argv.index("--memory-mb") + 1]))
    link = Link(sys.stdin.buffer, os.fdopen(3, "w", encoding="utf-8"))
    sys.stdin = open(os.devnull)  # noqa: SIM115 - programs must not read the control pipe
    current: dict[str, str | None] = {"run": None}

    def bridge(question: str, value: str | None) -> str:
        link.send({"type": "qa", "runId": current["run"], "question": question, "value": value})
        reply = link.receive()
        # Table updates may arrive while the program waits; apply them and keep waiting.
        while reply is not None and reply.get("type") in ("table", "drop-table"):
            apply_table_message(reply, link)
            reply = link.receive()
        if reply is None or reply.get("type") != "qa-answer":
            raise RuntimeError("the host went away")
        answer = reply["answer"]
        if not answer.get("ok"):
            raise RuntimeError(answer.get("error", {}).get("message", "no answer"))
        return str(answer["value"])

    host.install_qa_bridge(bridge)
    pandas = host.pandas_available()
    if pandas:
        import pandas as _warm  # noqa: F401 - pay the import before the first run
    boot = host.seal()
    link.send(
        {
            "type": "ready",
            "pythonVersion": sys.version.split()[0],
            "pandas": pandas,
            "bootMs": round((time.perf_counter() - started) * 1000),
        }
    )
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        message = link.receive()
        if message is None:
            return 0
        kind = message.get("type")
        if kind in ("table", "drop-table"):
            apply_table_message(message, link)
        elif kind == "run":
            if host.integrity() != boot or not host.tables_intact():
                link.send({"type": "tampered", "runId": message["runId"]})
                continue
            current["run"] = message["runId"]
            signal.signal(signal.SIGINT, signal.default_int_handler)
            on_start = functools.partial(link.send, {"type": "started", "runId": message["runId"]})
            try:
                result = host.run_json(
                    message["code"],
                    message.get("tableId"),
                    json.dumps(message.get("namedTables", [])),
                    int(message.get("maxQaCalls", 20)),
                    on_start=on_start,
                    question=message.get("question") if isinstance(message.get("question"), str) else None,
                )
            except KeyboardInterrupt:  # between the program's end and the runner's return
                result = json.dumps(
                    {
                        "ok": False,
                        "error": {
                            "code": "interrupted",
                            "message": "Interrupted.",
                            "stdout": "",
                            "stderr": "",
                        },
                    }
                )
            except Exception as error:  # a host failure, not the program's: report it as data
                result = json.dumps(
                    {
                        "ok": False,
                        "error": {"code": "internal", "message": repr(error), "stdout": "", "stderr": ""},
                    }
                )
            finally:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                current["run"] = None
            link.send({"type": "result", "runId": message["runId"], "resultJson": result})
            host.release()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
