"""The shared migration engine: files a migration adds follow the same write policy as the files it rewrites."""

from __future__ import annotations

from pathlib import Path

from cuda2rocm.migrate.engine import Generated, write_generated
from cuda2rocm.rewrite.runner import Mode


def test_added_file_is_a_diff_against_nothing_and_written_only_when_asked(tmp_path: Path) -> None:
    gen = Generated("deploy/canary.yaml", "kind: Deployment\n")
    shown = write_generated(gen, tmp_path, Mode.DIFF.policy())
    assert shown.changed and not shown.written and not (tmp_path / "deploy").exists()
    assert shown.diff().startswith("--- /dev/null\n+++ b/deploy/canary.yaml\n")
    done = write_generated(gen, tmp_path, Mode.IN_PLACE.policy())
    assert done.written and (tmp_path / "deploy/canary.yaml").read_text() == "kind: Deployment\n"
    again = write_generated(gen, tmp_path, Mode.IN_PLACE.policy())
    assert not again.changed and not again.written and again.diff() == ""  # a second run changes nothing


def test_added_file_never_replaces_other_content_without_force(tmp_path: Path) -> None:
    (tmp_path / "job.yaml").write_text("mine\n")
    gen = Generated("job.yaml", "generated\n")
    refused = write_generated(gen, tmp_path, Mode.IN_PLACE.policy())
    assert "exists with other content" in refused.write_error and (tmp_path / "job.yaml").read_text() == "mine\n"
    assert "-mine\n+generated\n" in refused.diff()
    forced = write_generated(gen, tmp_path, Mode.IN_PLACE.policy(force=True))
    assert forced.written and (tmp_path / "job.yaml").read_text() == "generated\n"
