# PE-Bench's calculator, run in the sandbox: the expression comes on stdin, one JSON line goes out,
# {"ok": true, "value": "<str(value)>"} or {"ok": false, "error": "<upstream's wording>"}.
# Arithmetic only, as upstream allows it: numbers, + - * / // % **, unary signs, tuples and lists,
# and calls of the math module's names and abs, round, min, max, sum, pow. Nothing else is evaluated.
import ast
import json
import math
import sys

ALLOWED_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load, ast.Constant, ast.Tuple, ast.List,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd,
)
NAMES = {name: getattr(math, name) for name in dir(math) if not name.startswith('_')}
NAMES.update({'abs': abs, 'round': round, 'min': min, 'max': max, 'sum': sum, 'pow': pow})


def calculate(expression):
    if not expression.strip():
        return {'ok': False, 'error': 'expression must not be empty.'}
    try:
        tree = ast.parse(expression, mode='eval')
    except SyntaxError as error:
        return {'ok': False, 'error': f'Invalid expression: {error.msg}'}
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED_NODES):
            return {'ok': False, 'error': f'Unsupported expression element: {type(node).__name__}'}
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.func.id not in NAMES):
            return {'ok': False, 'error': 'Unsupported function call.'}
        if isinstance(node, ast.Name) and node.id not in NAMES:
            return {'ok': False, 'error': f'Unknown name: {node.id}'}
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, complex)):
            return {'ok': False, 'error': f'Unsupported constant: {type(node.value).__name__}'}
    try:
        value = eval(compile(tree, '<calculator>', 'eval'), {'__builtins__': {}}, dict(NAMES))
        return {'ok': True, 'value': str(value)}
    except Exception as error:
        return {'ok': False, 'error': f'Calculation error: {error}'}


print(json.dumps(calculate(sys.stdin.read())))
