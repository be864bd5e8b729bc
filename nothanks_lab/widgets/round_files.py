"""The play table's review, replay, save and load: a finished or saved round looked back on.

`RoundFiles` is a part of `PlayTable` (a mixin): "Review my round" reviews the person's
decisions on a thread beside a replay (`ReplayPanel`), a link saves the round as a round
document, and "Load a round" shows a saved one in the same replay and review.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import ipywidgets as W

from .. import render
from ..engine import IllegalActionError
from ..i18n import _, fmt_decimal, ngettext, speaks
from ..table import RoundReplay, TableSession
from ..validate import write_atomic
from .common import _WRAP, ErrorLine, page_script, paint, plain_message
from .replay import ReplayPanel


class RoundFiles:
    """The review, replay, save and load panel of `PlayTable` (a mixin)."""

    _lock: AbstractContextManager[Any]
    session: TableSession
    errors: ErrorLine
    review_rollouts: int | None

    def _build_files(self) -> None:
        """Build the panel: `files_box` (buttons, link, status), `review_area` (replay, review)."""
        self.review: Any = None
        """The review on display (a `nothanks_lab.review.Review`), or None."""
        self._review_thread: threading.Thread | None = None
        self._review_token = 0
        self._save_key: tuple[int, int, int] | None = None
        # Width from the label: Portuguese labels are longer than ipywidgets' fixed 148 px.
        self.review_button = paint(
            W.Button(description=_("Review my round"), layout=W.Layout(width="auto")), "info"
        )
        self.review_status = W.HTML()
        self.save_link = W.HTML()
        self.load_upload = W.FileUpload(
            accept=".json",
            multiple=False,
            description=_("Load a round"),
            tooltip=_("Load a round"),  # else the button's title reads "null"
            icon="upload",
            layout=W.Layout(width="auto"),
        )
        self.load_upload.add_class("nothanks-upload")
        # No "(0)" counter on the button (issue 25, item 9): a style sheet, never displayed.
        self.upload_css = W.HTML(
            render.upload_label_css(self.load_upload.description),
            layout=W.Layout(display="none"),
        )
        # Its accessible name without the count (the CSS above hides "(0)" from the eye only).
        self.upload_name = page_script(render.upload_name_script(), "upload button names")
        self.loaded_info = W.HTML()  # which file was loaded, and what it holds
        self._loaded = ""
        self.replay_panel = ReplayPanel(on_step=self._on_replay_step)
        self.review_view = W.HTML(layout=W.Layout(flex="1 1 28em", min_width="22em"))
        self.review_area = W.Box(
            [self.replay_panel.widget, self.review_view],
            layout=W.Layout(display="none", flex_flow="row wrap", width="100%"),
        )
        self.files_box = W.Box(
            [
                self.review_button,
                self.save_link,
                self.load_upload,
                self.upload_css,
                self.upload_name,
                self.loaded_info,
                self.review_status,
            ],
            layout=_WRAP,
        )
        # Stable hooks for the real-browser test and for notebook CSS.
        self.review_status.add_class("nothanks-review-status")
        self.review_view.add_class("nothanks-review-area")
        self.review_area.add_class("nothanks-table-replay")
        g = self.errors.guard
        self.review_button.on_click(g(lambda _: self.review_round()))
        self.load_upload.observe(g(self._on_upload), names="value")

    @speaks
    def review_round(self, background: bool = True) -> threading.Thread | None:
        """Review the person's decisions in the finished round ("Review my round").

        The review plays rollouts (a few seconds for a whole round), so by default it runs on
        a thread while the status line says so and the page keeps answering; the replay shows
        at once and gets the labels when the review is done. `background=False` runs it here.
        """
        with self._lock:
            if self.session.phase not in ("round_over", "match_over"):
                raise IllegalActionError("finish the round first: a review looks at a whole round")
            s = self.session
            replay = s.replay()
            n = s.human_decisions

            def work(progress: Callable[[int, int], object]) -> Any:
                return s.review(n=self.review_rollouts, progress=progress)

        return self._start_review(replay, work, n, background)

    @speaks
    def load_round(self, text: str | bytes, background: bool = True) -> threading.Thread | None:
        """Show a saved round (a round document) in the replay, then its review.

        The reviewed seat is the file's first seat without a bot (else seat 0). A bad file is a
        `ValueError` saying what is wrong with it; the table is left as it was.
        """
        from ..analysis import rollout_field_of_specs
        from ..analysis.labels import DEFAULT_ROLLOUTS
        from ..records import load_round
        from ..review import review

        self._check_no_review_running()
        record = load_round(text, seed=0)
        game, names = record.game, list(record.names)
        seat = next((i for i, x in enumerate(record.seats) if x.bot is None), 0)
        n = sum(e.seat == seat for e in game.history)
        rollouts = DEFAULT_ROLLOUTS if self.review_rollouts is None else self.review_rollouts
        # The bots the file names, modelled as the table models its own (a review of a saved
        # round then matches the review made before saving it).
        field = rollout_field_of_specs([x.bot for x in record.seats])

        def work(progress: Callable[[int, int], object]) -> Any:
            return review(game, seat, field=field, n=rollouts, name=names[seat], progress=progress)

        with self._lock:
            self.clear_review()
            replay = RoundReplay(game, names, seat=seat)
        self._loaded = _(
            "a {seats}-seat round of {moves} moves; reviewing {name}'s {n} decisions"
        ).format(seats=game.n_players, moves=len(game.history), name=names[seat], n=n)
        return self._start_review(replay, work, n, background)

    def _check_no_review_running(self) -> None:
        if self._review_thread is not None and self._review_thread.is_alive():
            raise RuntimeError("a review is already running; it takes a few seconds")

    def _start_review(
        self,
        replay: RoundReplay,
        work: Callable[[Callable[[int, int], None]], Any],
        n: int,
        background: bool,
    ) -> threading.Thread | None:
        self._check_no_review_running()
        self._review_token += 1
        token = self._review_token
        self.review = None
        self.replay_panel.show(replay)
        self.review_view.value = ""
        self.review_area.layout.display = ""
        self.review_status.value = render.notice_html(
            ngettext("Reviewing {n} decision…", "Reviewing {n} decisions…", n).format(n=n)
        )
        self.review_button.disabled = True
        if not background:
            self._review_job(token, replay, work)
            return None
        self._review_thread = threading.Thread(
            target=self._review_job, args=(token, replay, work), daemon=True
        )
        self._review_thread.start()
        return self._review_thread

    @speaks
    def _review_job(
        self, token: int, replay: RoundReplay, work: Callable[[Callable[[int, int], None]], Any]
    ) -> None:
        def progress(done: int, total: int) -> None:
            if token == self._review_token:
                self.review_status.value = render.notice_html(
                    _("Reviewing: {done} of {total} decisions…").format(done=done, total=total)
                )

        try:
            result = work(progress)
        except Exception as exc:
            self.errors.report(exc)
            self.review_status.value = ""
            return
        finally:
            self.review_button.disabled = False
        with self._lock:
            if token != self._review_token:
                return  # a new round or file replaced this one meanwhile
            self.review = result
            step = self.replay_panel.step if self.replay_panel.replay is replay else None
            self.replay_panel.show(replay.with_review(result), step)
            self.review_status.value = render.small_html(
                _("Reviewed in {s} s: {headline}.").format(
                    s=fmt_decimal(result.elapsed_s, 1), headline=result.headline()
                )
            )

    @speaks
    def _on_replay_step(self, step: int) -> None:
        if self.review is not None:
            self.review_view.value = render.review_html(self.review, step)

    def clear_review(self) -> None:
        """Hide the replay and the review (a new round is on the table)."""
        self._review_token += 1
        self.review = None
        self.replay_panel.clear()
        self.review_view.value = ""
        self.review_status.value = ""
        self.loaded_info.value = ""
        self.review_area.layout.display = "none"

    @speaks
    def _on_upload(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        try:
            self.load_round(bytes(item["content"]))
        except ValueError as exc:
            name = item.get("name", _("the file"))
            kept = _("Nothing was loaded: the table still shows what it showed before.")
            raise ValueError(f"{name}: {plain_message(exc)} {kept}") from None
        else:
            self.errors.clear()
            name = item.get("name", _("the file"))
            self.loaded_info.value = render.small_html(
                _("Loaded {name}: {what}").format(name=name, what=self._loaded) + "."
            )
        finally:
            self.load_upload.value = ()  # so the same file can be loaded again

    def _draw_save_link(self, over: bool) -> None:
        s = self.session
        if not over:
            self.save_link.value = ""
            self._save_key = None
            return
        key = (id(s), s.round_number, len(s.game.history))
        if key != self._save_key:
            self._save_key = key
            self.save_link.value = render.download_link_html(
                s.round_json(), s.file_name(), _("Save this round (JSON)")
            )

    def save(self, path: str | Path) -> Path:
        """Write the round on the table to `path` as a round document (`Game.to_json`)."""
        path = Path(path)
        write_atomic(path, self.session.round_json())
        return path
