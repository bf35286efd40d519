"""Run folders: a used out_dir is refused unless --resume or --overwrite, resume needs a checkpoint (or a run
stopped before its first one, which starts again), and resuming drops the eval.csv rows past the checkpoint."""

from __future__ import annotations

import re

import pytest

from fcm_training.sb3.run_dir import Checkpoint, RunDirError, prepare_run_dir, trim_eval_rows
from fcm_training.sb3.selfplay import best_score


def make_run(out, *steps: int) -> None:
    (out / "checkpoints").mkdir(parents=True)
    (out / "config.yaml").write_text("name: old\n")
    for s in steps:
        (out / "checkpoints" / f"step_{s}.zip").write_bytes(b"x")


def test_a_missing_or_empty_folder_is_a_fresh_run_and_nothing_is_created(tmp_path):
    assert prepare_run_dir(tmp_path / "new") is None
    assert not (tmp_path / "new").exists()
    (tmp_path / "empty").mkdir()
    assert prepare_run_dir(tmp_path / "empty") is None


def test_a_used_folder_is_refused_and_left_alone(tmp_path):
    out = tmp_path / "run"
    make_run(out, 128)
    (out / "eval.csv").write_text("steps,opponent\n128,random\n")
    with pytest.raises(RunDirError, match=re.escape(
            f"out_dir {out} is not empty: use --resume to continue the run in it, --overwrite to replace")):
        prepare_run_dir(out)
    assert (out / "eval.csv").read_text() == "steps,opponent\n128,random\n"


def test_overwrite_clears_a_run_folder(tmp_path):
    out = tmp_path / "run"
    make_run(out, 128)
    assert prepare_run_dir(out, overwrite=True) is None
    assert not out.exists()


def test_overwrite_never_clears_a_folder_that_is_not_a_run(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(RunDirError, match="has no config.yaml: choose another out_dir"):
        prepare_run_dir(tmp_path, overwrite=True)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_resume_takes_the_checkpoint_with_the_most_steps(tmp_path):
    out = tmp_path / "run"
    make_run(out, 256, 1024, 512)  # by name, step_256 would sort last
    (out / "checkpoints" / "step_x.zip").write_bytes(b"x")
    assert prepare_run_dir(out, resume=True) == Checkpoint(out / "checkpoints" / "step_1024.zip", 1024)


@pytest.mark.parametrize("made", [False, True])
def test_resume_with_nothing_to_resume_is_an_error(tmp_path, made):
    out = tmp_path / "run"
    if made:  # a folder that is not a run's
        out.mkdir()
        (out / "notes.txt").write_text("keep me")
    expected = f"nothing to resume in {out}: no checkpoints/step_N.zip"
    with pytest.raises(RunDirError, match=re.escape(expected)):
        prepare_run_dir(out, resume=True)
    assert out.exists() == made


def test_resume_of_a_run_stopped_before_its_first_checkpoint_starts_it_again(tmp_path):
    out = tmp_path / "run"
    make_run(out)  # config.yaml, no checkpoint: stopped during behaviour cloning, say
    assert prepare_run_dir(out, resume=True) is None
    assert (out / "config.yaml").exists()


def test_resume_and_overwrite_together_or_a_file_are_errors(tmp_path):
    with pytest.raises(RunDirError, match="--resume and --overwrite exclude each other"):
        prepare_run_dir(tmp_path, resume=True, overwrite=True)
    (tmp_path / "f").write_text("")
    with pytest.raises(RunDirError, match="is a file, not a folder"):
        prepare_run_dir(tmp_path / "f")


def test_trim_keeps_the_rows_up_to_the_checkpoint_and_the_best_score_follows(tmp_path):
    path = tmp_path / "eval.csv"
    path.write_text("steps,opponent,win_rate,mean_cash\n128,random,0.5,10\n128,heuristic,0.0,5\n"
                    "256,random,1.0,30\n256,heuristic,0.5,20\n")
    kept = trim_eval_rows(path, 128)
    assert path.read_text().splitlines() == ["steps,opponent,win_rate,mean_cash", "128,random,0.5,10",
                                             "128,heuristic,0.0,5"]
    assert best_score(kept) == (0.25, 15.0)
    assert best_score([]) == (-1.0, 0.0)
    assert trim_eval_rows(tmp_path / "missing.csv", 5) == []
