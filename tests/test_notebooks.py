"""Both notebooks execute from top to bottom (tiny step counts; see FCM_NOTEBOOK_STEPS)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("name", ["01_quickstart.ipynb", "02_train_and_evaluate.ipynb"])
def test_notebook_executes(name):
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    errors = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs if o.output_type == "error"]
    assert not errors
    assert any(cell.outputs for cell in book.cells if cell.cell_type == "code")


@pytest.mark.parametrize("name", ["01_quickstart.ipynb", "02_train_and_evaluate.ipynb"])
def test_notebooks_are_stored_with_their_outputs(name):
    # the repository page shows the board pictures and the learning curve without running anything
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert all(cell.outputs for cell in code), "every code cell keeps its output"
    images = [o for cell in code for o in cell.outputs if "image/png" in o.get("data", {})]
    assert images, "a stored picture (board or learning curve)"
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]
