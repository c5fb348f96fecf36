/**
 * How each repository of SWE-bench runs its tests, as SWE-bench's harness does it
 * (swebench/harness/constants): the test command per repository and version, the
 * install step that makes a patched checkout importable, extra environment set-up,
 * and the parser that reads the test log.
 */
import type { LogParserName } from './log-parsers.ts'
import { testFiles } from '../patches/patch-files.ts'

export interface RepoSpec {
  /** Run from the repository root, followed by the test directives. */
  testCommand: string
  parser: LogParserName
  /** Re-run before the tests so that a non-editable install picks up the patch. */
  install?: string
  /** Shell lines run before the tests (locale, environment). */
  setup?: string[]
  /** The network its tests need, when not none (the official harness gives every container the engine's default). */
  network?: string
}

const PYTEST = 'pytest -rA'
const PIP_EDITABLE = 'python -m pip install -e .'
const DJANGO = './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1'
const DJANGO_LOCALE = ['export LANG=en_US.UTF-8', 'export LANGUAGE=en_US:en', 'export LC_ALL=en_US.UTF-8']

type SpecFor = (version: string) => RepoSpec

const SPECS: Record<string, SpecFor> = {
  'astropy/astropy': (version) => ({
    // Old versions run pytest 3.3 (SWE-bench's TEST_ASTROPY_PYTEST); no SWE-bench release adds `-p no:nose`.
    testCommand: ['0.1', '0.2', '0.3', '0.4', '1.1', '1.2', '1.3'].includes(version)
      ? 'pytest -rA -vv -o console_output_style=classic --tb=no'
      : PYTEST,
    parser: 'pytest-v2',
    install: 'python -m pip install -e .[test] --verbose',
  }),
  'django/django': (version) => {
    const old = ['1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11', '2.0', '2.1', '2.2'].includes(version)
    const setup = ['1.7', '1.8', '1.9', '1.10', '1.11', '2.0', '2.1', '2.2'].includes(version)
      ? [...DJANGO_LOCALE, 'export PYTHONIOENCODING=utf8']
      : ['3.0', '3.1', '3.2'].includes(version)
        ? ["sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen", ...DJANGO_LOCALE]
        : []
    return {
      testCommand: version === '1.9' ? './tests/runtests.py --verbosity 2' : DJANGO,
      parser: 'django',
      install: old ? 'python setup.py install' : PIP_EDITABLE,
      ...(setup.length > 0 ? { setup } : {}),
    }
  },
  'matplotlib/matplotlib': (version) => ({
    testCommand: PYTEST,
    parser: 'matplotlib',
    install: ['3.8', '3.9'].includes(version)
      ? 'python -m pip install --no-build-isolation -e ".[dev]"'
      : /^(1\.|2\.)/.test(version)
        ? 'python setup.py build; python setup.py install'
        : PIP_EDITABLE,
  }),
  'mwaskom/seaborn': (version) => ({
    testCommand: 'pytest --no-header -rA',
    parser: 'seaborn',
    install: version === '0.11' ? PIP_EDITABLE : 'python -m pip install -e .[dev]',
  }),
  'pallets/flask': () => ({ testCommand: PYTEST, parser: 'pytest', install: PIP_EDITABLE }),
  // A plain (non-editable) install: without build isolation it needs no index. The tests call an
  // httpbin (a local one through pytest-httpbin; httpbin.org in old versions): they need the network.
  'psf/requests': () => ({
    testCommand: PYTEST,
    parser: 'pytest-options',
    install: 'python -m pip install --no-build-isolation .',
    network: 'bridge',
  }),
  'pydata/xarray': () => ({ testCommand: PYTEST, parser: 'pytest', install: PIP_EDITABLE }),
  'pylint-dev/pylint': () => ({ testCommand: PYTEST, parser: 'pytest-options', install: PIP_EDITABLE }),
  'pytest-dev/pytest': () => ({ testCommand: PYTEST, parser: 'pytest', install: PIP_EDITABLE }),
  'scikit-learn/scikit-learn': () => ({
    testCommand: PYTEST,
    parser: 'pytest-v2',
    install: 'python -m pip install -v --no-use-pep517 --no-build-isolation -e .',
  }),
  'sphinx-doc/sphinx': () => ({
    testCommand: 'tox --current-env -epy39 -v --',
    parser: 'pytest-v2',
    install: 'python -m pip install -e .[test]',
  }),
  'sympy/sympy': () => ({
    testCommand: "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose",
    parser: 'sympy',
    install: PIP_EDITABLE,
  }),
}

export const KNOWN_REPOS: readonly string[] = Object.keys(SPECS)

export function repoSpec(repo: string, version: string): RepoSpec {
  const specFor = SPECS[repo]
  if (specFor === undefined) {
    throw new Error(
      `SWE-bench suite: no test command is known for repository ${repo}; known are ${KNOWN_REPOS.join(', ')}.`,
    )
  }
  return specFor(version)
}

/** What the test command is given: the test patch's test files; Django takes them as dotted modules under tests/. */
export function testDirectives(repo: string, testPatch: string): string[] {
  const files = testFiles(testPatch)
  if (repo !== 'django/django') return files
  return files.map((file) =>
    file
      .replace(/\.py$/, '')
      .replace(/^tests\//, '')
      .replaceAll('/', '.'),
  )
}
