"""The check a lesson's first cell makes on ``SEED``: a whole number from 0 to 1,000,000.

Every lesson opens with ``SEED = <integer>`` and then ``use_seed(SEED)``. A value outside the
allowed range, or one that is not a whole number (``True``, ``3.5``, ``"7"``), stops the run
there with one friendly line instead of a traceback several cells later: :class:`SeedError` is a
``ValueError`` whose ``_render_traceback_`` (the hook IPython uses to show an exception) returns
just that line, and "Run all" stops at the first error.
"""

from __future__ import annotations

from ..i18n import _, fmt_int

__all__ = ["SEED_MAX", "SeedError", "use_seed"]

#: The largest SEED a lesson accepts (the smallest is 0).
SEED_MAX = 1_000_000


class SeedError(ValueError):
    """A SEED a lesson cannot use; IPython shows its message alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def use_seed(seed: object) -> None:
    """Nothing when `seed` is a whole number from 0 to 1,000,000; otherwise a SeedError.

    It returns None, so the first cell prints nothing when SEED is fine.

    >>> use_seed(16)
    >>> use_seed(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nothanks_lab.lessons.seed.SeedError: SEED must be a whole number from 0 to 1,000,000; it...
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SeedError(
            _(
                "SEED must be a whole number from 0 to {max}, such as SEED = 16; it is {seed} "
                "({type}). Change the first cell and run all cells."
            ).format(max=fmt_int(SEED_MAX), seed=repr(seed), type=type(seed).__name__)
        )
    if not 0 <= seed <= SEED_MAX:
        raise SeedError(
            _(
                "SEED must be a whole number from 0 to {max}; it is {seed}. Change the first "
                "cell and run all cells."
            ).format(max=fmt_int(SEED_MAX), seed=fmt_int(seed))
        )
