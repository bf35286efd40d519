"""docs/actions.md and docs/observation.md are generated from the codec and the layout and kept current."""

from __future__ import annotations

from fcm_env.encoding.docs import ACTIONS_PATH, OBSERVATION_PATH, actions_markdown, main, observation_markdown


def test_actions_page_is_current():
    # regenerate with: python -m fcm_env.encoding.docs
    assert ACTIONS_PATH.read_text(encoding="utf-8") == actions_markdown()


def test_observation_page_is_current():
    assert OBSERVATION_PATH.read_text(encoding="utf-8") == observation_markdown()


def test_pages_name_every_segment_channel_and_slice():
    from fcm_env.encoding import CODEC, observation_layout

    actions = actions_markdown()
    assert all(f"| `{s.name}` | {s.start}-{s.stop - 1} |" in actions for s in CODEC.segments)
    assert "`recruit:waitress`" in actions
    layout = observation_layout()
    page = observation_markdown()
    assert all(f"| {c.index} | `{c.name}` |" in page for c in layout.channels)
    assert all(f"| `{v.name}` | {v.size} |" in page for v in layout.vector)


def test_check_mode_reports_current_pages(capsys):
    assert main(["--check"]) == 0
    assert capsys.readouterr().out == ""
