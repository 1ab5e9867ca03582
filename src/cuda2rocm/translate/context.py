"""Per-file state shared by the passes: tokens, options, and what the passes report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from cuda2rocm.model import Finding
from cuda2rocm.rules import Rule
from cuda2rocm.source.edits import SpanIndex
from cuda2rocm.source.structure import Function, Innermost, find_functions, match_brackets
from cuda2rocm.source.tokens import LineIndex, Token, all_indexes, next_code, prev_code
from cuda2rocm.translate.decide import Decision, Settings, decide
from cuda2rocm.translate.options import Options


@dataclass
class Context:
    text: str
    path: str
    tokens: list[Token]
    options: Options
    settings: Settings
    index: LineIndex
    findings: list[Finding] = field(default_factory=list)
    converted: Counter[tuple[str, str]] = field(default_factory=Counter)  # (library, kind) -> refs
    unsupported: int = 0
    uses_hip_runtime: bool = False  # the output needs hip/hip_runtime.h
    has_hip_runtime: bool = False  # the output includes hip/hip_runtime.h
    runtime_first: bool = False  # a header that needs hip_runtime.h comes before the file's own runtime include
    pairs: dict[int, int] | None = None  # bracket pairs, computed on first use (brackets())
    function_list: list[Function] | None = None  # function definitions, computed on first use (functions())
    defined: dict[str, bool] = field(default_factory=dict)  # CUDA-looking name -> the file declares it
    decisions: dict[str, Decision | None] = field(default_factory=dict)  # this file's decide() results
    source: Path | None = None  # the file on disk (its local headers are looked into); None for stdin/text
    header_names: frozenset[str] | None = None  # names its local headers declare, computed on first use
    aliases: dict[str, str] | None = None  # namespace aliases (namespace cg = cooperative_groups;), on first use
    shadowed: set[str] = field(default_factory=set)  # CUDA names the file declares as its own entities
    uses_cublas: bool | None = None  # the file includes a cuBLAS header (--roc complex types), on first use
    device_variables: frozenset[str] | None = None  # __device__/__constant__/__managed__ variables, on first use
    renames_cu: bool = False  # this run writes x.cu as x.hip (cu_suffix): local `#include "x.cu"` must follow
    kept_guards: frozenset[int] | None = None  # definedness tests that guard a value use (identifiers pass)
    token_texts: list[str] | None = None  # every token's text, by index, on first use (positions)
    found_at: dict[str, list[int]] = field(default_factory=dict)  # positions() answers, by text
    innermost: Innermost | None = None  # innermost_function()'s index, made on first use
    declared_at: dict[str, list[int]] = field(default_factory=dict)  # name -> its declarations (identifiers pass)
    identifiers: frozenset[str] | None = None  # every identifier of the file, on first use (includes pass)
    compared_versions: list[int] = field(default_factory=list)  # CUDA version macros compared (identifiers pass)
    dead: SpanIndex | None = None  # the CUDA-only branches of the file's platform switches (engine._live)

    @classmethod
    def create(cls, text: str, path: str, tokens: list[Token], options: Options,
               source: Path | None = None) -> Context:
        return cls(text, path, tokens, options, Settings.of(options), LineIndex(text), source=source)

    def positions(self, text: str) -> list[int]:
        """Indexes of every token whose text is ``text``, ascending (``list.index`` scans at C speed over one list
        of the token texts, made once per file; each text's answer is kept: a name asked about at each of its uses
        costs one scan of the file, not one per use). Read-only: the list is shared by every caller."""
        found = self.found_at.get(text)
        if found is None:
            if self.token_texts is None:
                self.token_texts = list(map(attrgetter("src"), self.tokens))
            found = self.found_at[text] = all_indexes(self.token_texts, text)
        return found

    def brackets(self) -> dict[int, int]:
        """The file's bracket pairs (:func:`match_brackets`), computed once; the hazard analysis gets them too."""
        if self.pairs is None:
            self.pairs = match_brackets(self.tokens)
        return self.pairs

    def functions(self) -> list[Function]:
        """The file's function definitions (:func:`find_functions`), computed once; shared with the hazard analysis."""
        if self.function_list is None:
            self.function_list = find_functions(self.tokens, self.brackets())
        return self.function_list

    def innermost_function(self, i: int) -> Function | None:
        """The innermost function whose parameter list or body holds token ``i`` (:class:`Innermost`)."""
        if self.innermost is None:
            self.innermost = Innermost(self.functions(), from_params=True)
        return self.innermost.at(i)

    def decide(self, name: str) -> Decision | None:
        """:func:`decide` under this file's settings, remembered per name."""
        try:
            return self.decisions[name]
        except KeyError:
            found = self.decisions[name] = decide(name, self.settings)
            return found

    def decide_with_hip_data_types(self, name: str) -> Decision | None:
        """:func:`decide` as with ``--use-hip-data-types`` (library data types as hipDataType values)."""
        return decide(name, self.settings._replace(use_hip_data_types=True))

    def report(self, rule: Rule, offset: int, message: str) -> None:
        line, col = self.index.line_col(offset)
        self.findings.append(rule.finding(self.path, line, col, message))

    def prev_code(self, i: int) -> int:
        """The code token before ``i`` (directives are streams of their own: :func:`source.tokens.prev_code`)."""
        return prev_code(self.tokens, i)

    def next_code(self, i: int) -> int:
        return next_code(self.tokens, i)
