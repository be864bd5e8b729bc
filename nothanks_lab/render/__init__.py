"""Everything the package shows: HTML for notebooks and widgets, and every table.

Pure functions from a game, view, match, review or plain rows to self-contained markup or text
(no CDN; the only scripts are the figures'), so a round or a table looks the same wherever it is
shown. One concept per submodule:

- `render.cards`: cards, hands in runs, the seats table, the active card, final and match scores;
- `render.panels`: the panels around the table (title, status, log, hints, the evaluation of
  Take versus No Thanks!, notices, errors, a download link, headings and captions);
- `render.review`: a review's decisions and one step of a replay;
- `render.figures`: plotly.js inlined once, a figure as a div;
- `render.tables`: every text, markdown, CSV, JSON and HTML table (tournament, sweep, tuning,
  ratings, the command line's output). It imports nothing from the package, so the engine's
  objects print through it from the lowest layer; the rest of `render` sits above them.
"""

from __future__ import annotations

from html import escape

from ..stats import fmt_share
from ..validate import renamed_names
from .cards import (
    BUTTON_COLORS,
    CARD_STATUS_KIND,
    TO_ACT_BG,
    YOUR_TURN_BG,
    active_html,
    card_html,
    final_scores_html,
    game_html,
    hand_html,
    match_html,
    match_progress_html,
    move_words,
    seats_html,
    view_html,
)
from .figures import figure_div, figure_numbers, gap_chances_figure, plotly_js_html
from .panels import (
    caption_html,
    clearly_better,
    download_link_html,
    error_html,
    hand_summary_html,
    heading_html,
    hints_html,
    immediate_verdict_html,
    log_html,
    move_prompt_html,
    neighbour_cards,
    notice_html,
    placeholder_html,
    position_evaluation_html,
    small_html,
    status_html,
    title_html,
    turn_prompt_html,
    upload_label_css,
    upload_name_script,
    warning_html,
)
from .review import LABEL_COLORS, label_html, replay_html, review_html
from .tables import (
    RECORD_FORMATS,
    csv_table,
    fmt_interval,
    html_sections,
    html_table,
    markdown_table,
    records_table,
    text_table,
)

__all__ = [
    "BUTTON_COLORS",
    "CARD_STATUS_KIND",
    "LABEL_COLORS",
    "RECORD_FORMATS",
    "TO_ACT_BG",
    "YOUR_TURN_BG",
    "active_html",
    "caption_html",
    "card_html",
    "clearly_better",
    "csv_table",
    "download_link_html",
    "error_html",
    "escape",
    "figure_div",
    "figure_numbers",
    "final_scores_html",
    "fmt_interval",
    "fmt_share",
    "game_html",
    "gap_chances_figure",
    "hand_html",
    "hand_summary_html",
    "heading_html",
    "hints_html",
    "html_sections",
    "html_table",
    "immediate_verdict_html",
    "label_html",
    "log_html",
    "markdown_table",
    "match_html",
    "match_progress_html",
    "move_prompt_html",
    "move_words",
    "neighbour_cards",
    "notice_html",
    "placeholder_html",
    "plotly_js_html",
    "position_evaluation_html",
    "records_table",
    "replay_html",
    "review_html",
    "seats_html",
    "small_html",
    "status_html",
    "text_table",
    "title_html",
    "turn_prompt_html",
    "upload_label_css",
    "upload_name_script",
    "view_html",
    "warning_html",
]

#: ``render.figure_html``, the old name of `figure_div` (``plots.figure_html`` writes a whole
#: page), works one release with a warning.
__getattr__ = renamed_names(__name__, figure_html="nothanks_lab.render.figures.figure_div")
