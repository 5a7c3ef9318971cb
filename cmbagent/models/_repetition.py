"""A streaming guard against replies that repeat themselves: the call is cut as soon as the loop shows.

Small models loop wherever they may: SmolLM2-135M wrote ``"priors.priors.priors…"`` keys for 6,850 tokens
(459 s) before its token limit stopped it, and repeated one sentence of a report until the deadline.  Waiting for
the limit wastes the whole budget; the loop is plain after a few hundred characters.  :class:`RepetitionGuard`
reads the reply as it streams (every provider streams through :class:`cmbagent.models.ModelClient`) and raises
:class:`RepetitionDetected` when it sees one of three shapes:

* **a repeated tail**: the reply's last characters are one unit (up to :data:`MAX_UNIT` characters) written
  again and again (``"0.1.0.1.0.1…"``, ``"the plan, the plan, …"``) over at least :data:`TAIL_CHARS` characters
  and :data:`TAIL_REPEATS` times;
* **repeated phrases**: among the last :data:`WINDOW_WORDS` words of one text (a JSON string value of a
  structured reply, the whole of a prose one), half the phrases of :data:`PHRASE_WORDS` words or more occur three
  times or more (``"step 3: fit the data and print it. step 4: fit the data and print it."`` repeats its words; an
  enumeration such as ``"depth 1 has 5 outputs, depth 2 has 9 outputs"`` does not, its numbers differ).  Items of a
  list that resemble each other (plan steps with the same instructions) are not a loop: the list's ``maxItems``
  bounds them;
* **a repeated key**: a JSON key that holds one part three times or more (``"priors.priors.priors.data"``), or
  keys that grow by one part after another;
* **a repeated item**: a list whose last :data:`ITEM_REPEATS` items are the same object, list or text (SmolLM2
  planned the same method step twelve times over, 1,474 tokens);
* **a runaway number**: a JSON number (outside any string) of more than :data:`NUMBER_DIGITS` digits — no value
  a schema asks for has them (a double has 17 significant digits), and SmolLM2 wrote one of about 7,000 digits
  as the last of a list of initialisation scales, until its token limit (``theory_tubal_tensor_gd``); its digits
  do not repeat, so no other shape sees it; inside a string, a run of more than :data:`DIGIT_RUN` characters of
  digits broken by dots, colons or dashes (at least one in twenty characters: a long plain number in a string, an
  identifier, is text), without a space (SmolLM2 wrote one as the code reviewer's
  ``revised_code`` of an approved cell until its 2,048-token limit, three times in one ``theory_tubal_tensor_gd``
  run: ``"2020-11-20 14:28:43.294163.0.67.30-771891.1.0.1-1.42.7138…"``; a list of numbers in code or prose has
  spaces or letters between its items); and inside a JSON string, more than :data:`LETTERLESS_RUN` characters
  without a letter, half of them digits and one in twenty something else (SmolLM2, as the code reviewer of
  ``causal_value_of_prediction``, wrote ``revised_code`` as ``"#4592287 #2022-05-08 20:17:28 #4592292 …"`` to its
  2,048-token limit: the spaces and hashes hid it from the shape before; no string a schema asks for holds 600
  characters of numbers without a word, while a long identifier has no separators).

The client then stops the call (the server stops generating when the stream closes) and asks once more, naming
the repetition; see :meth:`cmbagent.models.ModelClient.request`.  The thresholds are far from what a sound
reply does: a plan of twelve steps repeats its keys, not a third of its words; a table repeats its rule, not
two hundred characters of it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from cmbagent.exceptions import ModelError

__all__ = ["DIGIT_RUN", "ITEM_REPEATS", "LETTERLESS_RUN", "MAX_UNIT", "NUMBER_DIGITS", "PHRASE_WORDS", "TAIL_CHARS", "TAIL_REPEATS", "WINDOW_WORDS", "RepetitionDetected",
           "RepetitionGuard"]

#: a repeated tail must cover this many characters, hold its unit this many times, and its unit is at most
#: MAX_UNIT characters (a repeated sentence)
TAIL_CHARS, TAIL_REPEATS, MAX_UNIT = 200, 4, 300
#: phrase length in words, the window of words looked at (at least MIN_WORDS), and the share of its phrases that
#: must repeat three times or more
PHRASE_WORDS, WINDOW_WORDS, MIN_WORDS, PHRASE_SHARE = 5, 120, 40, 0.5
#: characters of prose whose words are looked at (a look must not reread a long reply)
_PROSE_CHARS = 2000
#: the same list item (an object, a list, a text of 10 characters or more) this many times in a row is a loop
ITEM_REPEATS = 3
#: a number outside strings with more digits than this is no value (a double has 17 significant digits)
NUMBER_DIGITS = 40
#: a run of digits, dots, colons and dashes longer than this, one in twenty of them a dot, colon or dash, is no text
#: (a timestamp has 26 characters)
DIGIT_RUN = 200
#: inside a JSON string, more characters than this without a letter, half of them digits and one in twenty neither
#: digit nor letter, is no text (a markdown row of numbers is a few dozen; a reply's strings have words)
LETTERLESS_RUN = 600
_LETTER = re.compile(r"[^\W\d_]")
#: characters of new text between two looks (a look costs well under a millisecond)
CHECK_EVERY = 48
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_KEY_PART = re.compile(r"[A-Za-z]+")


class RepetitionDetected(ModelError):
    """A streamed reply repeated itself; the call was cut (the client asks once more, naming the repetition)."""

    def __init__(self, message: str, *, unit: str, kind: str, count: int, chars: int):
        super().__init__(message)
        self.unit = unit
        self.kind = kind
        self.count = count
        self.chars = chars


@dataclass
class _Array:
    """A list being written: where its current item starts, its last item and how often it came in a row."""

    start: int
    last: str = ""
    count: int = 0


@dataclass
class _Strings:
    """Splits streamed JSON text into the strings it holds, keys apart from values, as they close, and the items of
    its lists as they close (``items``: each with how many times in a row that same item came)."""

    in_string: bool = False
    escaped: bool = False
    current: str = ""
    pending: str | None = None  # a closed string not yet known to be a key or a value
    position: int = 0
    stack: list[_Array | None] = field(default_factory=list)  # open containers: a list's state, None for an object
    text: str = ""

    def feed(self, text: str) -> tuple[list[str], list[str], list[tuple[str, int]]]:
        keys: list[str] = []
        values: list[str] = []
        items: list[tuple[str, int]] = []
        self.text += text
        for char in text:
            at = self.position
            self.position += 1
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                    self.current += char
                elif char == "\\":
                    self.escaped = True
                elif char == '"':
                    self.in_string, self.pending = False, self.current
                else:
                    self.current += char
                continue
            if self.pending is not None and not char.isspace():
                (keys if char == ":" else values).append(self.pending)
                self.pending = None
            if char == '"':
                self.in_string, self.current = True, ""
            elif char in "[{":
                self.stack.append(_Array(start=at + 1) if char == "[" else None)
            elif char in "]}":
                if self.stack and char == "]" and self.stack[-1] is not None:
                    self._item(self.stack[-1], at, items)
                if self.stack:
                    self.stack.pop()
            elif char == "," and self.stack and self.stack[-1] is not None:
                self._item(self.stack[-1], at, items)
                self.stack[-1].start = at + 1
        return keys, values, items

    def _item(self, array: _Array, end: int, items: list[tuple[str, int]]) -> None:
        offset = self.position - len(self.text)
        item = re.sub(r"\s+", "", self.text[array.start - offset:end - offset])
        if not item:
            return
        array.count = array.count + 1 if item == array.last else 1
        array.last = item
        items.append((item, array.count))
        if len(self.text) > 20000:  # only open lists' items are read back: keep what they may need
            keep = min([a.start for a in self.stack if a is not None] + [self.position]) - offset
            self.text = self.text[keep:]

    def open_text(self) -> str:
        """The string being written (a value grows here until it closes)."""
        return self.current if self.in_string else ""


class RepetitionGuard:
    """Feed it a reply's text as it streams; it raises :class:`RepetitionDetected` when the reply loops.

    Args:
        structured: the reply is JSON (a schema was asked for): phrases are looked for in its string values only,
            and keys are checked; otherwise the whole text is prose.
    """

    def __init__(self, *, structured: bool = False):
        self.structured = structured
        self.text = ""
        self._since = 0
        self._strings = _Strings() if structured else None
        self._keys: list[str] = []

    def reset(self) -> None:
        """Forget the reply so far (its stream was cut off and is being asked for again)."""
        self.__init__(structured=self.structured)  # type: ignore[misc]

    def feed(self, delta: str) -> None:
        """Add streamed text; raise :class:`RepetitionDetected` when the reply is looping."""
        if not delta:
            return
        self.text += delta
        if self._strings is not None:
            keys, values, items = self._strings.feed(delta)
            for key in keys:
                self._key(key)
            for value in values:
                self._phrase(_words(value[-_PROSE_CHARS:])[-WINDOW_WORDS:])
            for item, count in items:
                self._item(item, count)
        self._since += len(delta)
        if self._since >= CHECK_EVERY:
            self._since = 0
            self.check()

    def check(self) -> None:
        """Look at the reply so far (called every :data:`CHECK_EVERY` characters by :meth:`feed`)."""
        self._tail()
        if self._strings is not None and not self._strings.in_string:
            self._number()
        text = self._strings.open_text() if self._strings is not None else self.text
        self._digits(text)
        if self._strings is not None and self._strings.in_string:
            self._letterless(text)
        self._phrase(_words(text[-_PROSE_CHARS:])[-WINDOW_WORDS:])

    # -- the three shapes --------------------------------------------------------------------------
    def _tail(self) -> None:
        text = self.text
        for period in range(1, MAX_UNIT + 1):
            span = max(TAIL_CHARS, TAIL_REPEATS * period)
            if len(text) < span + period:
                return
            if text[-span:] == text[-span - period:-period]:
                unit = text[-period:]
                self._raise("tail", unit, _run_length(text, unit))

    def _phrase(self, window: list[str]) -> None:
        if len(window) < MIN_WORDS:
            return
        grams = [tuple(window[i:i + PHRASE_WORDS]) for i in range(len(window) - PHRASE_WORDS + 1)]
        counts = Counter(gram for gram in grams if sum(1 for w in gram if len(w) > 1 and not w.isdigit()) >= 2)
        repeated = sum(1 for gram in grams if counts.get(gram, 0) >= 3)
        if repeated >= PHRASE_SHARE * len(grams):
            gram, count = counts.most_common(1)[0]
            self._raise("phrase", " ".join(gram), count)

    def _key(self, key: str) -> None:
        parts = [p.lower() for p in _KEY_PART.findall(key) if len(p) > 1]
        if parts:
            part, count = Counter(parts).most_common(1)[0]
            if count >= 3:
                self._raise("key", key[:80], count, f"the key {key[:80]!r} repeats {part!r} {count} times")
        self._keys.append(key)
        last = self._keys[-3:]
        if len(last) == 3 and all(len(b) > len(a) and b.startswith(a.rsplit(".", 1)[0]) and "." in b
                                  for a, b in itertools.pairwise(last)):
            self._raise("key", last[-1][:80], 3, f"keys grow one part after another: {', '.join(map(repr, last))}")

    def _number(self) -> None:
        """A number written on and on, outside strings (its digits need not repeat)."""
        run = re.search(r"[0-9]+$", self.text[-(NUMBER_DIGITS + CHECK_EVERY + 1):])
        if run is not None and len(run.group(0)) > NUMBER_DIGITS:
            self._raise("number", run.group(0)[:40], len(run.group(0)),
                        f"a number of {len(run.group(0))} digits and counting was written ({run.group(0)[:24]}...)")

    def _digits(self, text: str) -> None:
        """Digits and the dots, colons and dashes between them, written on and on inside a string or prose."""
        run = re.search(r"[0-9][0-9.:\-]*$", text[-(DIGIT_RUN + CHECK_EVERY + 1):])
        if run is not None and len(run.group(0)) > DIGIT_RUN and sum(c in ".:-" for c in run.group(0)) >= DIGIT_RUN // 20:
            self._raise("number", run.group(0)[:40], len(run.group(0)),
                        f"a run of {len(run.group(0))} digits and dots and counting was written "
                        f"({run.group(0)[:24]}...)")

    def _letterless(self, text: str) -> None:
        """Numbers and separators written on and on inside a JSON string, with no word between them."""
        tail = text[-(LETTERLESS_RUN + CHECK_EVERY + 1):]
        run = tail[max((m.end() for m in _LETTER.finditer(tail)), default=0):]
        digits = sum(c.isdigit() for c in run)
        if len(run) > LETTERLESS_RUN and digits >= len(run) / 2 and len(run) - digits >= len(run) / 20:
            self._raise("number", run.strip()[:40], len(run),
                        f"{len(run)} characters of numbers without a word and counting were written "
                        f"({run.strip()[:24]}...)")

    def _item(self, item: str, count: int) -> None:
        """The same list item :data:`ITEM_REPEATS` times in a row: a list written on and on (SmolLM2 planned one
        method step twelve times over).  Numbers and short words may repeat (``[0, 0, 0]``, ``["x", "x"]``)."""
        if count >= ITEM_REPEATS and (item[0] in "[{" or len(item) >= 10):
            self._raise("item", item, count, f"the same list item was written {count} times in a row: "
                                             f"{item[:80]}{'...' if len(item) > 80 else ''}")

    def _raise(self, kind: str, unit: str, count: int, what: str = "") -> None:
        shown = unit if len(unit) <= 80 else unit[:77] + "..."
        what = what or (f"the text {shown!r} was written {count} times in a row" if kind == "tail"
                        else f"the phrase {shown!r} was written {count} times")
        raise RepetitionDetected(f"the reply repeated itself after {len(self.text)} characters: {what}",
                                 unit=shown, kind=kind, count=count, chars=len(self.text))


def _words(text: str) -> list[str]:
    """Lower-case words and numbers."""
    return [w.lower() for w in _WORD.findall(text)]


def _run_length(text: str, unit: str) -> int:
    count, end = 0, len(text)
    while end >= len(unit) and text[end - len(unit):end] == unit:
        count += 1
        end -= len(unit)
    return count
