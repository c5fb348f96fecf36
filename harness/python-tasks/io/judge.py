"""Compares what a program returned with the canonical solution's outputs, outside the program's process.

Trusted and long-lived: reads one JSON request per line on stdin, writes one JSON
verdict per line on stdout. A request names an oracle file (written by the harness
from the canonical solution's run), a task in it, and the io_driver's output of the
candidate's run. Only plain data is decoded (value_codec), so no object of the
program's ever reaches this process. The rules are EvalPlus's (evalplus/eval/__init__.py,
v0.3.1): exact equality, or for float outputs the same type, the same length and
np.allclose(rtol=1e-07, atol) (close_enough.py) with atol raised to 1e-6 when the task gives 0, and
the special oracles of HumanEval/32 and of seven MBPP+ tasks. Base and plus inputs
are checked as EvalPlus's two separate checks (atol starts afresh for the plus inputs).
"""
import json
import math
import sys

import close_enough
import value_codec

SET_EQUAL = {'similar_elements', 'find_char_long', 'common_in_nested_lists', 'extract_singly', 'larg_nnum', 'intersection_array', 'find_dissimilar', 'Diff'}
NOT_NONE = {'check_str', 'text_match_three', 'text_starta_endb'}


class NotNone:
    """What is kept of an output for a NOT_NONE task: whether it was None."""

    def __init__(self, flag):
        self.flag = flag


def poly(xs, x):
    return sum(coefficient * math.pow(x, power) for power, coefficient in enumerate(xs))


def pyramid_surface(base_edge, height):
    slant = math.sqrt((base_edge / 2) ** 2 + height**2)
    return round(base_edge**2 + 4 * (base_edge * slant) / 2)


def digit_distance(first, second):
    a, b = str(first), str(second)
    width = max(len(a), len(b))
    return sum(abs(int(x) - int(y)) for x, y in zip(a.zfill(width), b.zfill(width)))


def is_floats(value):
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)) and value:
        return all(isinstance(item, float) for item in value)
    numpy = close_enough.numpy
    if numpy is not None and isinstance(value, numpy.ndarray):
        return value.dtype == numpy.float64 or value.dtype == numpy.float32
    return False


def matches(kind, entry_point, arguments, out, expected, atol):
    """(passed, atol for the next input): EvalPlus's checks for one input, exceptions counting as a failure."""
    if isinstance(out, value_codec.Fingerprint) or isinstance(expected, value_codec.Fingerprint):
        # A large value is known by the fingerprint of its normal form: equal when Python's == would say so
        # for exact data; float tolerances and special oracles do not apply to it.
        return fingerprint_of(out) == fingerprint_of(expected), atol
    if isinstance(out, NotNone):
        exact = expected == out.flag
    else:
        exact = out == expected
    if kind == 'mbpp':
        if entry_point == 'are_equivalent':
            exact = True
        elif entry_point == 'sum_div':
            exact = exact or out == 0
        elif entry_point == 'surface_Area':
            exact = exact or abs(out - pyramid_surface(*arguments)) <= atol
        elif entry_point == 'digit_distance_nums':
            exact = exact or out == digit_distance(*arguments)
        elif entry_point in SET_EQUAL:
            exact = set(out) == set(expected)
    if kind == 'humaneval' and entry_point == 'find_zero':
        return bool(abs(poly(*arguments, out)) <= atol), atol
    if atol == 0 and is_floats(expected):
        atol = 1e-6
    if not exact and atol != 0:
        if type(out) is not type(expected):
            return False, atol
        if isinstance(expected, (list, tuple)) and len(out) != len(expected):
            return False, atol
        return close_enough.allclose(out, expected, rtol=1e-07, atol=atol), atol
    return bool(exact), atol


def fingerprint_of(value):
    return value.digest if isinstance(value, value_codec.Fingerprint) else value_codec.fingerprint(value)


def output_of(record):
    if 'nn' in record:
        if type(record['nn']) is not bool:
            raise ValueError('"nn" is not a boolean')
        return NotNone(record['nn'])
    return value_codec.decode(record['v'])


class Oracles:
    """The answer keys read so far, by file: one file per task, written by the harness."""

    def __init__(self):
        self.tasks = {}

    def task(self, path):
        if path not in self.tasks:
            with open(path, encoding='utf-8') as file:
                stored = json.load(file)
            expected = [output_of(record) for record in json.loads(stored['expected'])]
            expected = [item.flag if isinstance(item, NotNone) else item for item in expected]
            self.tasks[path] = (stored, value_codec.loads(stored['inputs']), expected)
        return self.tasks[path]


def judge(oracles, request):
    stored, inputs, expected = oracles.task(request['oracle'])
    kind, entry_point, n_base = request['kind'], stored['entryPoint'], stored['nBase']
    verdict = {'inputs': len(inputs), 'base': n_base, 'checked': 0, 'cpuMs': 0.0, 'wallMs': 0.0, 'setupCpuMs': None}
    failure = None
    atol = stored['atol']
    lines = request['output'].splitlines()
    records = []
    try:
        records = [json.loads(line) for line in lines if line.strip()]
        if any(type(record) is not dict for record in records):
            raise ValueError('a line is not an object')
    except ValueError as error:
        failure = {'index': None, 'status': 'malformed', 'detail': f'The results channel holds a line that is not a result ({error}).'}
    if failure is None:
        failure = check_records(kind, entry_point, inputs, expected, n_base, atol, records, verdict)
    verdict['failure'] = failure
    verdict['basePassed'] = failure is None or (failure['index'] is not None and failure['index'] >= n_base)
    verdict['passed'] = failure is None
    return verdict


def check_records(kind, entry_point, inputs, expected, n_base, atol, records, verdict):
    if records and records[0].get('driver') == 'started':
        records = records[1:]
    if not records or records[0].get('setup') is None:
        return {'index': None, 'status': 'missing', 'detail': 'The program ended before its function could be called.'}
    setup = records[0]
    verdict['setupCpuMs'] = setup.get('cpu')
    if setup['setup'] != 'ok':
        status = 'timeout' if setup['setup'] == 'timeout' else 'error'
        return {'index': None, 'status': status, 'detail': f"Defining the function failed: {setup.get('e', 'it ran out of time')}"}
    task_atol = atol
    for index in range(len(inputs)):
        if index == n_base:
            atol = task_atol
        position = index + 1
        if position >= len(records):
            return {'index': index, 'status': 'missing', 'detail': f'The program ended before input {index} returned.'}
        record = records[position]
        if record.get('i') != index:
            return {'index': index, 'status': 'malformed', 'detail': f'Result {position} is not for input {index}: the program wrote to the results channel.'}
        verdict['cpuMs'] += float(record.get('cpu', 0))
        verdict['wallMs'] += float(record.get('wall', 0))
        verdict['checked'] = index + 1
        status = record.get('s')
        if status != 'ok':
            detail = record.get('e') or ('It ran past its time limit.' if status == 'timeout' else '')
            return {'index': index, 'status': status if status in ('timeout', 'error', 'unencodable') else 'malformed', 'detail': str(detail)[:400]}
        try:
            out = output_of(record)
            passed, atol = matches(kind, entry_point, inputs[index], out, expected[index], atol)
        except Exception as error:
            passed, out = False, f'(could not be compared: {type(error).__name__})'
        if not passed:
            return {'index': index, 'status': 'wrong', 'detail': f'Input {index}: returned {shown(out)}, expected {shown(expected[index])}.'}
    if len(records) != len(inputs) + 2 or records[-1].get('done') != len(inputs):
        return {'index': None, 'status': 'malformed', 'detail': 'The results channel holds more than the driver wrote.'}
    return None


def shown(value):
    if isinstance(value, value_codec.Fingerprint):
        return f'a large value (sha256 of its normal form {value.digest[:16]}…)'
    text = f'not None: {value.flag}' if isinstance(value, NotNone) else repr(value)
    return text if len(text) <= 200 else text[:200] + '…'


def main():
    oracles = Oracles()
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = judge(oracles, request)
        except Exception as error:
            reply = {'error': f'{type(error).__name__}: {error}'}
        reply['id'] = request['id']
        sys.stdout.write(json.dumps(reply) + '\n')
        sys.stdout.flush()


main()
