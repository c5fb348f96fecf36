import type { KnobDeclaration } from '../knob.ts'

/** The sandbox's environment knobs, declared next to the code that reads them. */
export const sandboxKnobs: readonly KnobDeclaration[] = [
  { name: 'SANDBOX', kind: 'choice', default: 'process', accepted: 'process or docker', readme: 'Where generated programs run.' },
  { name: 'TESTBENCH_SANDBOX_IMAGE', kind: 'text', default: 'the project image', accepted: 'a container image name', readme: 'Image for SANDBOX=docker.' },
  { name: 'TESTBENCH_SANDBOX_CONCURRENCY', kind: 'integer', default: 'cores', accepted: 'a whole number ≥ 1', readme: 'Sandbox runs at once per process.' },
  { name: 'TESTBENCH_SANDBOX_ENV', kind: 'list', default: '', accepted: 'comma-separated variable names', readme: 'Extra variables passed to sandboxed programs (secrets never are).' },
  { name: 'TESTBENCH_PYTHON_WARM', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'Serve Python from warm fork servers.' },
  { name: 'TESTBENCH_JAVA_WARM', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'Compile Java on warm javac servers.' },
  { name: 'TESTBENCH_PYTHON_PRELOAD', kind: 'list', default: '', accepted: 'comma-separated module names', readme: 'Modules the warm Python server imports up front.' },
  { name: 'TESTBENCH_PYTHON', kind: 'path', default: '/usr/bin/python3', accepted: 'a path to python3', readme: 'Python interpreter.' },
  { name: 'TESTBENCH_NODE', kind: 'path', default: '/usr/bin/node', accepted: 'a path to node', readme: 'Node interpreter for JavaScript tasks.' },
  { name: 'TESTBENCH_RUSTC', kind: 'path', default: 'rustc on PATH', accepted: 'a path to rustc', readme: 'Rust compiler.' },
  { name: 'TESTBENCH_CLOJURE_JAR', kind: 'path', default: '/usr/share/java/clojure.jar', accepted: 'a path to clojure.jar', readme: 'Clojure jar.' },
]
