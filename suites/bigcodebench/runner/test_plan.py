"""What a task's tests must report, read from their source with `ast` before any program runs.

unittest's loader runs every callable attribute of TestCases whose name starts with "test", in
sorted order; in BigCodeBench these are the `def test...` of TestCases and of the classes it
inherits from in the same source. A skip is legitimate only where the tests can skip.
"""
import ast

SKIP_NAMES = frozenset(('skip', 'skipIf', 'skipUnless', 'skipTest', 'SkipTest', 'expectedFailure'))


class TestPlan:
    def __init__(self, methods, may_skip):
        # In the order unittest runs them.
        self.methods = sorted(methods)
        # The tests hold a skip (a decorator, self.skipTest, raise SkipTest): only then may a method be skipped.
        self.may_skip = may_skip


def test_plan(source):
    """The plan of the test source, or a string saying why there is none."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return f'the tests do not parse: {error}'
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    if 'TestCases' not in classes:
        return 'the tests define no class TestCases'
    methods = set()
    seen = set()

    def collect(name):
        if name in seen or name not in classes:
            return
        seen.add(name)
        node = classes[name]
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name.startswith('test'):
                methods.add(statement.name)
        for base in node.bases:
            if isinstance(base, ast.Name):
                collect(base.id)

    collect('TestCases')
    may_skip = any(
        (isinstance(node, ast.Name) and node.id in SKIP_NAMES) or (isinstance(node, ast.Attribute) and node.attr in SKIP_NAMES)
        for node in ast.walk(tree)
    )
    return TestPlan(methods, may_skip)
