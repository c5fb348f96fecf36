import { afterAll, describe, expect, test } from 'vitest'
import { hostProtections } from '../../../../adapters/sandbox/process/host-protections.ts'
import { HostToolchain } from '../../../../adapters/sandbox/process/host-toolchain.ts'
import { WarmJavac } from '../../../../adapters/sandbox/warm-servers/jvm-warm-javac.ts'
import { ProcessSandbox } from '../../../../adapters/sandbox/process/process-sandbox.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'

/** Java compiled on the warm javac must get the verdicts a fresh javac gives, and runs must not see each other. */

const warm = new ProcessSandbox({ warmJava: true, warmPython: false })
const cold = new ProcessSandbox({ warmJava: false, warmPython: false })
afterAll(async () => {
  await warm.close()
  await cold.close()
})

const TWO_FILES = {
  'Main.java':
    'import util.Twice;\npublic class Main { public static void main(String[] args) { System.out.println(Twice.of(21)); } }\n',
  'util/Twice.java': 'package util;\npublic class Twice { public static int of(int n) { return 2 * n; } }\n',
}

describe('warm javac', () => {
  test('serves compiles itself (the runs below are not compiled cold behind its back)', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    const java = new HostToolchain().resolve('java')
    if ('missing' in java) throw new Error(java.missing)
    const javac = new WarmJavac(java.path, hostProtections().bwrap ?? '', { root: hostProtections().root })
    try {
      const compiled = await javac.compile(TWO_FILES, 60_000)
      expect(compiled?.compiled).toBe(true)
      expect([...(compiled?.classes.keys() ?? [])]).toEqual(['Main.class', 'util/Twice.class'])
    } finally {
      javac.close()
    }
  })

  test('compiles a program of two files in two packages, which then runs', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    const result = await warm.run({ language: 'java', files: TWO_FILES })
    expect(result.outcome).toBe('passed')
    expect(result.stdout.text).toBe('42\n')
  })

  test('a compile error is a compile_error with the diagnostics a fresh javac prints', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    const broken = { 'Main.java': 'public class Main {\n  public static void main(String[] args) { int x = ; }\n}\n' }
    const [warmResult, coldResult] = [
      await warm.run({ language: 'java', files: broken }),
      await cold.run({ language: 'java', files: broken }),
    ]
    expect(warmResult.outcome).toBe('compile_error')
    expect(coldResult.outcome).toBe('compile_error')
    expect(warmResult.reason).toBe(coldResult.reason)
    expect(warmResult.compileOutput).toBe(coldResult.compileOutput)
  })

  test('a run cannot use classes another run compiled', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    expect((await warm.run({ language: 'java', files: TWO_FILES })).outcome).toBe('passed')
    const borrower = {
      'Main.java':
        'public class Main { public static void main(String[] args) { System.out.println(util.Twice.of(1)); } }\n',
    }
    const result = await warm.run({ language: 'java', files: borrower })
    expect(result.outcome).toBe('compile_error')
    expect(result.compileOutput).toMatch(/package util does not exist/)
  })

  test('annotation processors named by a program do not run while it compiles', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    const files = {
      'Main.java': 'public class Main { public static void main(String[] args) { System.out.println("ran"); } }\n',
      'Evil.java':
        'import javax.annotation.processing.*; import javax.lang.model.element.*; import java.util.Set;\n' +
        '@SupportedAnnotationTypes("*") public class Evil extends AbstractProcessor {\n' +
        '  public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) { throw new RuntimeException("processor ran"); }\n}\n',
      'META-INF/services/javax.annotation.processing.Processor': 'Evil\n',
    }
    const result = await warm.run({ language: 'java', files })
    expect(result.outcome).toBe('passed')
    expect(result.stdout.text).toBe('ran\n')
  })
})
