"""Students without a browser: the server's side of a page, spoken over Jupyter's own protocol.

A class's browsers run on the students' own machines; on a 2-core test machine N Chromium pages
measure mostly themselves (a Voilà page costs its browser about 3 CPU seconds: 5 MB of
JavaScript in 96 files, measured by ``bench_class.py``). This client does exactly what the page's
JavaScript asks of the server and nothing else, so N of them measure the server: it fetches the
page (Voilà hands out a preheated kernel), opens the kernel's websocket, opens the widget
manager's ``jupyter.widget.control`` comm and asks for every widget's state (``request_states``,
as ipywidgets 8's manager does on page load: the table is then drawable), finds the ``Take``
button's model, clicks it (a ``custom`` ``click`` message, as the button's view sends) and times
the kernel's first widget update after each click; at the end it posts Voilà's shutdown beacon
(the ``_xsrf`` double-submit the offline template's page sends on closing the tab).

Used by ``bench_class.py --clients protocol`` (or ``mixed``: one real Chromium page among them).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
import uuid
from typing import Any

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

#: ipywidgets 8's widget control protocol (the version its JavaScript manager announces).
CONTROL_VERSION = "1.0.0"
_CONFIG = re.compile(
    r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S
)


def _message(kind: str, content: dict[str, Any], session: str, **meta: Any) -> tuple[str, str]:
    """A shell message as the page's JavaScript sends it, and its id."""
    msg_id = uuid.uuid4().hex
    header = {
        "msg_id": msg_id,
        "msg_type": kind,
        "username": "student",
        "session": session,
        "date": "",
        "version": "5.3",
    }
    msg = {"header": header, "parent_header": {}, "metadata": meta, "content": content}
    return json.dumps({**msg, "channel": "shell", "buffers": []}), msg_id


def _answers(msg: dict[str, Any], parent: str, methods: tuple[str, ...]) -> bool:
    """Whether a kernel message was sent while handling message ``parent``, with one of these
    widget methods (the kernel stamps each message with the request it answers)."""
    data = msg["content"].get("data", {})
    same = msg.get("parent_header", {}).get("msg_id") == parent
    return bool(same and data.get("method") in methods)


async def _comm_reply(ws: Any, want: Any, timeout: float) -> dict[str, Any]:
    """The next comm message from the kernel for which ``want(message)`` holds."""
    end = time.perf_counter() + timeout
    while True:
        left = end - time.perf_counter()
        if left <= 0:
            raise TimeoutError("no widget message from the kernel in time")
        raw = await asyncio.wait_for(ws.read_message(), left)
        if raw is None:
            raise ConnectionError("the kernel's websocket closed")
        if not isinstance(raw, str):
            continue  # binary frames carry buffers the table does not use
        msg = json.loads(raw)
        if msg.get("msg_type") == "comm_msg" and want(msg):
            return dict(msg["content"]["data"])


async def student(base: str, moves: int, gap: float, timeout: float) -> dict[str, Any]:
    """One student: page, widget states (table drawable), ``moves`` clicks, then tab closed."""
    res: dict[str, Any] = {"ok": False, "clicks": []}
    t0 = time.perf_counter()
    http = AsyncHTTPClient(force_instance=True)
    ws = None
    try:
        page = await http.fetch(base, request_timeout=timeout)
        res["html"] = time.perf_counter() - t0
        found = _CONFIG.search(page.body.decode())
        if not found:
            raise ValueError("the page holds no jupyter-config-data")
        kernel = json.loads(found.group(1))["kernelId"]
        res["kernel"] = kernel
        session = uuid.uuid4().hex
        host = base.split("://", 1)[1].rstrip("/")
        ws = await websocket_connect(
            f"ws://{host}/api/kernels/{kernel}/channels?session_id={session}",
            connect_timeout=timeout,
        )
        control = uuid.uuid4().hex
        opened = {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}
        text, _ = _message("comm_open", opened, session, version=CONTROL_VERSION)
        await ws.write_message(text)
        ask = {"comm_id": control, "data": {"method": "request_states"}}
        text, asked = _message("comm_msg", ask, session)
        await ws.write_message(text)
        left = timeout - (time.perf_counter() - t0)
        data = await _comm_reply(ws, lambda m: _answers(m, asked, ("update_states",)), left)
        states = data["states"]
        take = [
            k
            for k, v in states.items()
            if v["state"].get("_model_name") == "ButtonModel"
            and v["state"].get("description") == "Take"
        ]
        if not take:
            raise ValueError("no Take button among the page's widgets")
        res["table"] = time.perf_counter() - t0
        res["ok"] = True
        click = {"method": "custom", "content": {"event": "click"}}
        for _ in range(moves):
            await asyncio.sleep(gap)
            t1 = time.perf_counter()
            text, clicked = _message("comm_msg", {"comm_id": take[0], "data": click}, session)
            await ws.write_message(text)
            try:  # the first widget update the kernel sends while handling this click
                await _comm_reply(ws, lambda m, c=clicked: _answers(m, c, ("update",)), 10)
            except (TimeoutError, asyncio.TimeoutError):
                res["click_error"] = True
                break
            res["clicks"].append(time.perf_counter() - t1)
    except Exception as e:  # a student without a table is a failure, counted
        res["error"] = type(e).__name__
    finally:
        if ws is not None:
            ws.close()
        if res.get("kernel"):  # the tab is closed: Voilà's shutdown beacon, as the page sends it
            token = secrets.token_hex(16)
            beacon = HTTPRequest(
                f"{base.rstrip('/')}/voila/api/shutdown/{res['kernel']}",
                method="POST",
                body=f"_xsrf={token}",
                headers={"Cookie": f"_xsrf={token}"},
                request_timeout=30,
            )
            try:
                await http.fetch(beacon, raise_error=False)
            except Exception:
                res["beacon_error"] = True
        http.close()
    return res


async def class_of(
    base: str, n: int, moves: int, gap: float, timeout: float
) -> list[dict[str, Any]]:
    """``n`` students arriving at the same moment."""
    return list(await asyncio.gather(*(student(base, moves, gap, timeout) for _ in range(n))))
