"""The Python examples of docs/python.md run, in order, from the repository's root."""

import os
import re

from conftest import ROOT


def test_the_guide_runs():
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        scope: dict = {}
        for i, block in enumerate(blocks):
            # pandas is not a dependency: its one line is left out.
            code = "\n".join(line for line in block.splitlines() if "pd.DataFrame" not in line)
            exec(compile(code, f"docs/python.md block {i + 1}", "exec"), scope)
    finally:
        os.chdir(here)
