/** Each repository's log format, on short logs written for these tests, read through that repository's spec. */
import { describe, expect, test } from 'vitest'
import { parseTestLog, type TestStatus } from '../../../../suites/swebench/evaluation/log-parsers.ts'
import { KNOWN_REPOS, repoSpec } from '../../../../suites/swebench/evaluation/repo-specs.ts'

function statusesOf(repo: string, version: string, log: string): Record<string, TestStatus> {
  return Object.fromEntries(parseTestLog(repoSpec(repo, version).parser, log))
}

const PYTEST_SUMMARY = [
  '============================= test session starts ==============================',
  'collected 5 items',
  '',
  'tests/test_app.py ..Fsx                                                  [100%]',
  '=========================== short test summary info ============================',
  'PASSED tests/test_app.py::test_route',
  'PASSED tests/test_app.py::TestConfig::test_from_mapping',
  'FAILED tests/test_app.py::test_json - AssertionError: assert 1 == 2',
  'SKIPPED [1] tests/test_app.py:40: needs network',
  'XFAIL tests/test_app.py::test_later - reason: not yet',
  '==================== 1 failed, 2 passed, 1 skipped, 1 xfailed in 0.12s ====================',
].join('\n')

const PYTEST_EXPECTED = {
  'tests/test_app.py::test_route': 'PASSED',
  'tests/test_app.py::TestConfig::test_from_mapping': 'PASSED',
  'tests/test_app.py::test_json': 'FAILED',
  'tests/test_app.py::test_later': 'XFAIL',
}

describe('pytest -rA summaries (flask, pytest, xarray)', () => {
  test.for([
    ['pallets/flask', '2.3'],
    ['pytest-dev/pytest', '7.4'],
    ['pydata/xarray', '2022.06'],
  ])('%s %s', ([repo = '', version = '']) => {
    expect(statusesOf(repo, version, PYTEST_SUMMARY)).toEqual(PYTEST_EXPECTED)
  })

  test('verbose progress lines, test id first, are read too', () => {
    const log = 'testing/test_mark.py::test_marked_class PASSED [ 50%]\ntesting/test_mark.py::test_keyword ERROR [100%]'
    expect(statusesOf('pytest-dev/pytest', '5.4', log)).toEqual({
      'testing/test_mark.py::test_marked_class': 'PASSED',
      'testing/test_mark.py::test_keyword': 'ERROR',
    })
  })
})

describe('pytest with path parameters (requests, pylint)', () => {
  test('requests: an absolute path parameter is cut to its last part', () => {
    const log = [
      'PASSED tests/test_requests.py::TestRequests::test_basic_building',
      'PASSED tests/test_utils.py::test_get_netrc_auth[/home/runner/.netrc]',
      'FAILED tests/test_requests.py::TestRequests::test_proxy_auth - requests.exceptions.ProxyError',
    ].join('\n')
    expect(statusesOf('psf/requests', '2.27', log)).toEqual({
      'tests/test_requests.py::TestRequests::test_basic_building': 'PASSED',
      'tests/test_utils.py::test_get_netrc_auth[/.netrc]': 'PASSED',
      'tests/test_requests.py::TestRequests::test_proxy_auth': 'FAILED',
    })
  })

  test('pylint: parameters that are not paths stay whole', () => {
    const log = [
      'PASSED tests/test_functional.py::test_functional[unused_import]',
      'FAILED tests/test_self.py::TestRunTC::test_output_file_valid_path - AssertionError',
      'PASSED tests/lint/unittest_lint.py::test_load_plugin_path_manipulation_case_3[/tmp/pylint/regrtest]',
    ].join('\n')
    expect(statusesOf('pylint-dev/pylint', '2.15', log)).toEqual({
      'tests/test_functional.py::test_functional[unused_import]': 'PASSED',
      'tests/test_self.py::TestRunTC::test_output_file_valid_path': 'FAILED',
      'tests/lint/unittest_lint.py::test_load_plugin_path_manipulation_case_3[/regrtest]': 'PASSED',
    })
  })
})

describe('pytest with colour codes (astropy, scikit-learn, sphinx)', () => {
  const coloured = [
    '\u001b[32mPASSED\u001b[0m astropy/io/fits/tests/test_header.py::TestHeaderFunctions::test_card_constructor_default_args',
    '\u001b[31mFAILED\u001b[0m astropy/io/fits/tests/test_header.py::test_long_value - ValueError: too long',
  ].join('\n')

  test('astropy', () => {
    expect(statusesOf('astropy/astropy', '5.1', coloured)).toEqual({
      'astropy/io/fits/tests/test_header.py::TestHeaderFunctions::test_card_constructor_default_args': 'PASSED',
      'astropy/io/fits/tests/test_header.py::test_long_value': 'FAILED',
    })
  })

  test('astropy before 1.3 runs pytest in classic verbose style', () => {
    expect(repoSpec('astropy/astropy', '1.3').testCommand).toContain('console_output_style=classic')
    const log =
      'astropy/units/tests/test_units.py::test_getting_started PASSED\nastropy/units/tests/test_units.py::test_repr FAILED'
    expect(statusesOf('astropy/astropy', '1.3', log)).toEqual({
      'astropy/units/tests/test_units.py::test_getting_started': 'PASSED',
      'astropy/units/tests/test_units.py::test_repr': 'FAILED',
    })
  })

  test('scikit-learn', () => {
    const log =
      'PASSED sklearn/linear_model/tests/test_ridge.py::test_ridge[svd]\n\u001b[1mFAILED\u001b[0m sklearn/linear_model/tests/test_ridge.py::test_ridge_cv - assert False'
    expect(statusesOf('scikit-learn/scikit-learn', '1.3', log)).toEqual({
      'sklearn/linear_model/tests/test_ridge.py::test_ridge[svd]': 'PASSED',
      'sklearn/linear_model/tests/test_ridge.py::test_ridge_cv': 'FAILED',
    })
  })

  test('sphinx, through tox', () => {
    expect(repoSpec('sphinx-doc/sphinx', '7.1').testCommand).toBe('tox --current-env -epy39 -v --')
    const log =
      'py39: commands[0]> python -X dev -m pytest -rA tests/test_ext_autodoc.py\n\u001b[32mPASSED\u001b[0m tests/test_ext_autodoc.py::test_autodoc_typehints\nERROR tests/test_ext_autodoc.py::test_autodoc_mocked - ImportError'
    expect(statusesOf('sphinx-doc/sphinx', '7.1', log)).toEqual({
      'tests/test_ext_autodoc.py::test_autodoc_typehints': 'PASSED',
      'tests/test_ext_autodoc.py::test_autodoc_mocked': 'ERROR',
    })
  })
})

describe('django', () => {
  test('the runner at verbosity 2: ok, FAIL, ERROR, skipped, and an ok pushed to the next line', () => {
    const log = [
      'test_clean (forms_tests.field_tests.test_urlfield.URLFieldTest) ... ok',
      'test_clean_invalid (forms_tests.field_tests.test_urlfield.URLFieldTest) ... FAIL',
      'test_widget (forms_tests.field_tests.test_urlfield.URLFieldTest) ... ERROR',
      "test_postgres (forms_tests.field_tests.test_urlfield.URLFieldTest) ... skipped 'PostgreSQL specific'",
      'test_noisy (forms_tests.field_tests.test_urlfield.URLFieldTest) ... some printed output',
      'ok',
      '',
      '======================================================================',
      'FAIL: test_clean_invalid (forms_tests.field_tests.test_urlfield.URLFieldTest)',
    ].join('\n')
    expect(statusesOf('django/django', '4.1', log)).toEqual({
      'test_clean (forms_tests.field_tests.test_urlfield.URLFieldTest)': 'PASSED',
      'test_clean_invalid (forms_tests.field_tests.test_urlfield.URLFieldTest)': 'FAILED',
      'test_widget (forms_tests.field_tests.test_urlfield.URLFieldTest)': 'ERROR',
      'test_postgres (forms_tests.field_tests.test_urlfield.URLFieldTest)': 'SKIPPED',
      'test_noisy (forms_tests.field_tests.test_urlfield.URLFieldTest)': 'PASSED',
      test_clean_invalid: 'FAILED',
    })
  })

  test('an ok cut off by the system-check message still counts', () => {
    const log = 'test_check (admin_scripts.tests.ManageCheck) ... System check identified no issues (0 silenced)\nok'
    expect(statusesOf('django/django', '3.0', log)).toMatchObject({
      'test_check (admin_scripts.tests.ManageCheck)': 'PASSED',
    })
  })
})

describe('sympy', () => {
  test('bin/test --verbose: ok, F, E, and the failure headers', () => {
    const log = [
      'sympy/core/tests/test_basic.py[3] ',
      'test_equality ok',
      'test_matches_basic F',
      'test_atoms E',
      '',
      '________________________________________________________________________________',
      '_________ sympy/core/tests/test_basic.py:test_matches_basic __________',
    ].join('\n')
    expect(statusesOf('sympy/sympy', '1.12', log)).toEqual({
      test_equality: 'PASSED',
      test_matches_basic: 'FAILED',
      test_atoms: 'ERROR',
      'sympy/core/tests/test_basic.py:test_matches_basic': 'FAILED',
    })
  })
})

describe('matplotlib', () => {
  test('pytest -rA with mouse buttons written as numbers', () => {
    const log = [
      'PASSED lib/matplotlib/tests/test_widgets.py::test_span_selector_press[MouseButton.LEFT]',
      'FAILED lib/matplotlib/tests/test_axes.py::test_hist_log[png] - matplotlib.testing.exceptions.ImageComparisonFailure',
      'SKIPPED lib/matplotlib/tests/test_backend_pgf.py::test_xelatex',
    ].join('\n')
    expect(statusesOf('matplotlib/matplotlib', '3.6', log)).toEqual({
      'lib/matplotlib/tests/test_widgets.py::test_span_selector_press[1]': 'PASSED',
      'lib/matplotlib/tests/test_axes.py::test_hist_log[png]': 'FAILED',
      'lib/matplotlib/tests/test_backend_pgf.py::test_xelatex': 'SKIPPED',
    })
  })
})

describe('seaborn', () => {
  test('summary lines and verbose lines', () => {
    const log = [
      'tests/test_core.py::TestHueMapping::test_init_from_map PASSED [ 10%]',
      'PASSED tests/test_core.py::TestSizeMapping::test_plotter_default_init',
      'FAILED tests/test_core.py::TestStyleMapping::test_map_dashes - AttributeError',
    ].join('\n')
    expect(statusesOf('mwaskom/seaborn', '0.12', log)).toEqual({
      'tests/test_core.py::TestHueMapping::test_init_from_map': 'PASSED',
      'tests/test_core.py::TestSizeMapping::test_plotter_default_init': 'PASSED',
      'tests/test_core.py::TestStyleMapping::test_map_dashes': 'FAILED',
    })
  })
})

test('every repository of Lite and Verified has a spec, and an unknown one is a clear error', () => {
  expect([...KNOWN_REPOS].sort()).toEqual(
    [
      'astropy/astropy',
      'django/django',
      'matplotlib/matplotlib',
      'mwaskom/seaborn',
      'pallets/flask',
      'psf/requests',
      'pydata/xarray',
      'pylint-dev/pylint',
      'pytest-dev/pytest',
      'scikit-learn/scikit-learn',
      'sphinx-doc/sphinx',
      'sympy/sympy',
    ].sort(),
  )
  expect(() => repoSpec('octo/cat', '1.0')).toThrow(/no test command is known for repository octo\/cat/)
})
