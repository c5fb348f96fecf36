"""Reads an EvalPlus dataset file (HumanEvalPlus / MbppPlus, native format) and writes one JSON line per task.

Trusted: runs outside the sandbox and executes nothing from the file. Each line has
the task id, entry point, atol, the canonical program (prompt + canonical solution,
as EvalPlus runs it), how many of the inputs are base inputs, and the inputs (base,
then plus) as one string in value_codec's format. MBPP+ inputs are stored as JSON,
which has no tuples, sets or complex numbers: they are restored per task as
EvalPlus's loader (`mbpp_deserialize_inputs`) restores them.

usage: evalplus_tasks.py humaneval|mbpp <file.jsonl.gz>
"""
import gzip
import json
import sys

import value_codec


def each_argument(convert):
    return lambda arguments: [convert(argument) for argument in arguments]


def first_argument(convert):
    return lambda arguments: [convert(arguments[0]), *arguments[1:]]


def items_to_tuples(items):
    return [tuple(item) for item in items]


def nested_tuples(value):
    return tuple(nested_tuples(item) for item in value) if isinstance(value, list) else value


def sets_or_empty_dicts(items):
    return [set(item) if isinstance(item, list) and item else {} for item in items]


# Task number -> how its stored arguments become the values EvalPlus calls the function with.
MBPP_RESTORE = {}
for number in (2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740, 744, 809):
    MBPP_RESTORE[number] = each_argument(tuple)
for number in (63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780):
    MBPP_RESTORE[number] = each_argument(items_to_tuples)
for number in (75, 413, 444, 753):
    MBPP_RESTORE[number] = lambda arguments: [items_to_tuples(arguments[0]), arguments[1]]
for number in (106, 750):
    MBPP_RESTORE[number] = lambda arguments: [arguments[0], tuple(arguments[1])]
MBPP_RESTORE[115] = lambda arguments: [sets_or_empty_dicts(arguments[0])]
MBPP_RESTORE[124] = lambda arguments: [float(arguments[0]), complex(arguments[1])]
for number in (250, 405, 446, 617, 720, 763, 808):
    MBPP_RESTORE[number] = lambda arguments: [tuple(arguments[0]), arguments[1]]
for number in (259, 401, 445):
    MBPP_RESTORE[number] = each_argument(lambda argument: tuple(items_to_tuples(argument)))
MBPP_RESTORE[278] = lambda arguments: [tuple(tuple(item) if isinstance(item, list) else item for item in arguments[0])]
MBPP_RESTORE[307] = lambda arguments: [tuple(arguments[0]), arguments[1], arguments[2]]
MBPP_RESTORE[722] = lambda arguments: [{key: tuple(value) for key, value in arguments[0].items()}, *arguments[1:]]
MBPP_RESTORE[252] = lambda arguments: [complex(arguments[0])]
for number in (580, 615, 791):
    MBPP_RESTORE[number] = nested_tuples


def restored(kind, task_id, inputs):
    if kind != 'mbpp':
        return inputs
    restore = MBPP_RESTORE.get(int(task_id.split('/')[-1]))
    return inputs if restore is None else [restore(arguments) for arguments in inputs]


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with gzip.open(path, 'rt', encoding='utf-8') as file:
        for line in file:
            if not line.strip():
                continue
            task = json.loads(line)
            task_id = task['task_id']
            base = restored(kind, task_id, list(task['base_input']))
            plus = restored(kind, task_id, list(task['plus_input']))  # Mbpp/793 stores {} for none
            record = {
                'task_id': task_id,
                'entry_point': task['entry_point'],
                'atol': task['atol'],
                'canonical': task['prompt'] + task['canonical_solution'],
                'n_base': len(base),
                'inputs': value_codec.dumps([list(arguments) for arguments in base + plus]),
            }
            sys.stdout.write(json.dumps(record) + '\n')


main()
