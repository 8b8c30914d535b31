"""split_file, one behaviour per test: inline source -> the outputs it must produce."""

from __future__ import annotations

import textwrap

from migrate.errors import Pos
from migrate.plan.model import Split, SplitOutput
from migrate.tests_split.split import split_file


def _split(source: str, **takes: tuple[str, ...]):
    """Split `source` into outputs named by keyword (a.py, b.py) taking the given tests."""
    outs = tuple(
        SplitOutput(f"{k}.py", v, Pos("plan.yaml", i + 1, 1))
        for i, (k, v) in enumerate(takes.items())
    )
    return split_file(
        textwrap.dedent(source), "test_src.py", Split("test_src.py", outs, Pos("plan.yaml"))
    )


def test_parenthesized_import_is_pruned_in_place():
    res = _split(
        """\
        from m import (
            a,
            b,  # why b
            c,
        )
        import x, y; import z


        def test_a():
            b(y)


        def test_b():
            a(z)
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert res.outputs["a.py"] == textwrap.dedent(
        """\
        from m import (
            b,  # why b
        )
        import y


        def test_a():
            b(y)
        """
    )
    assert res.outputs["b.py"].startswith("from m import (\n    a,\n)\nimport z\n")


def test_conditional_import_and_attached_setup_follow_their_names():
    res = _split(
        """\
        try:
            import triton
        except ImportError:
            triton = None
        CONFIGS = []
        CONFIGS.append(1)
        SEEN = set()
        print("module setup runs everywhere")


        def _register_ops():
            pass


        _register_ops()


        def test_a():
            assert triton is None or CONFIGS


        def test_b():
            pass
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert "import triton" in res.outputs["a.py"] and "CONFIGS.append(1)" in res.outputs["a.py"]
    assert res.outputs["b.py"] == textwrap.dedent(
        """\
        print("module setup runs everywhere")


        def _register_ops():
            pass


        _register_ops()


        def test_b():
            pass
        """
    )


def test_module_skips_markers_and_autouse_fixtures_go_everywhere():
    res = _split(
        """\
        import sys
        import pytest

        pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no triton")
        if sys.version_info < (3, 8):
            pytest.skip("old python", allow_module_level=True)


        @pytest.fixture(autouse=True)
        def _seed():
            yield


        @pytest.fixture(name="dev")
        def _device_fixture():
            return "cpu"


        @pytest.mark.usefixtures("clean")
        def test_a(dev):
            pass


        @pytest.fixture
        def clean():
            yield


        def test_b():
            pass
        """,
        a=("test_a",),
        b=("test_b",),
    )
    for out in res.outputs.values():
        assert "pytestmark = pytest.mark.skipif" in out
        assert 'pytest.skip("old python", allow_module_level=True)' in out
        assert "def _seed():" in out
    assert "def _device_fixture" in res.outputs["a.py"] and "def clean" in res.outputs["a.py"]
    assert "def _device_fixture" not in res.outputs["b.py"] and "clean" not in res.outputs["b.py"]


def test_shadowed_names_do_not_pull_helpers():
    res = _split(
        """\
        def x():
            return 1


        def test_a():
            x = 2
            assert x == 2


        def test_b(x=None):
            assert x is None
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert "def x" not in res.outputs["a.py"] and "def x" not in res.outputs["b.py"]
    assert res.shared == {}


def test_main_block_calling_tests_by_name_keeps_each_outputs_own_calls():
    res = _split(
        """\
        import sys


        def test_a():
            pass


        def test_b(argv=None):
            pass


        if __name__ == "__main__":
            test_a()
            test_b(sys.argv)
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert [(n.severity, "calls tests by name" in n.message) for n in res.notes] == [
        ("warning", True)
    ]
    assert res.outputs["a.py"] == textwrap.dedent(
        """\
        def test_a():
            pass


        if __name__ == "__main__":
            test_a()
        """
    )
    assert res.outputs["b.py"].startswith("import sys\n")
    assert res.outputs["b.py"].endswith('if __name__ == "__main__":\n    test_b(sys.argv)\n')


def test_an_output_may_keep_the_source_path_and_patterns_match_classes():
    res = _split(
        """\
        import unittest


        class TestNormFast(unittest.TestCase):
            def test_x(self):
                pass


        class TestNormSlow(unittest.TestCase):
            def test_y(self):
                pass
        """,
        test_src=("TestNorm*Fast",),
        slow=("TestNorm*",),
    )
    assert res.notes[0].message.startswith("test TestNormFast is taken by several")
    assert res.units == {"test_src.py": ["TestNormFast"], "slow.py": ["TestNormSlow"]}


def test_unparsable_source_is_an_error_note():
    res = _split("def test_a(:\n    pass\n", a=("rest",))
    assert res.outputs == {} and not res.ok
    assert str(res.notes[0]).startswith("test_src.py:1:0: error: cannot split:")


def test_registrations_sharing_a_line_with_other_code_are_apportioned_in_order():
    res = _split(
        """\
        register_cuda_ci(est_time=4, suite="s1"); X = 1
        register_amd_ci(est_time=10, suite="s2")


        def test_a():
            pass


        def test_b():
            assert X
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert res.outputs["a.py"].splitlines()[:2] == [
        'register_cuda_ci(est_time=2, suite="s1"); X = 1',
        'register_amd_ci(est_time=5, suite="s2")',
    ]


def test_a_comment_above_a_registration_survives_when_the_line_it_sat_on_is_dropped():
    res = _split(
        """\
        # ci-cost-override: keep until re-timed
        import os
        register_cuda_ci(est_time=4, suite="s1")


        def test_a():
            pass


        def test_b():
            assert os
        """,
        a=("test_a",),
        b=("test_b",),
    )
    assert res.outputs["a.py"].startswith(
        '# ci-cost-override: keep until re-timed\nregister_cuda_ci(est_time=2, suite="s1")\n'
    )
    assert res.outputs["b.py"].startswith(
        "# ci-cost-override: keep until re-timed\nimport os\nregister_cuda_ci(est_time=2"
    )


def test_dotted_imports_are_kept_when_used_through_their_full_name():
    res = _split(
        """\
        from __future__ import annotations

        import importlib.util
        import msgspec.msgpack
        import os.path


        def test_a():
            assert importlib.util.find_spec("os") and msgspec.msgpack


        def test_b():
            assert os.getcwd()
        """,
        a=("test_a",),
        b=("test_b",),
    )
    future = "from __future__ import annotations\n\n"
    assert res.outputs["a.py"].startswith(
        future + "import importlib.util\nimport msgspec.msgpack\n"
    )
    assert res.outputs["b.py"].startswith(future + "import os.path\n\n")
