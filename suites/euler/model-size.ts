/**
 * A model's size for PE-Bench's Mem-Score and "Best Model for Size (GB)": billions of parameters
 * and bits per weight. The original takes them from Ollama's model list (`parameter_size`,
 * `quantization_level`), from hand-written `_parameter_size` / `_quantization_level` fields for
 * API models, and gives a name ending in `q4_K_M` 4 bits. Here: the knobs
 * TESTBENCH_EULER_PARAMETERS / _BITS first (recorded with each item, so saved reports keep them),
 * then what Ollama says, then the model's name (`qwen2.5:7b-instruct-q8_0` → 7 B, 8 bits).
 */

export interface ModelSize {
  /** Billions of parameters. */
  parameters?: number
  /** Bits per weight. */
  bits?: number
}

/** The original's memory estimate in GB: parameters × 0.75 at 4 bits, × 1.1 at 8 bits, × 2.0 otherwise; undefined when a size is unknown. */
export function memoryGB(size: ModelSize): number | undefined {
  const { parameters, bits } = size
  if (parameters === undefined || bits === undefined || parameters <= 0 || bits <= 0) return undefined
  if (bits === 4) return parameters * 0.75
  if (bits === 8) return parameters * 1.1
  return parameters * 2.0
}

export function modelSize(
  model: string,
  details: Readonly<Record<string, string | number>>,
  stated: ModelSize,
): ModelSize {
  const parameters = stated.parameters ?? parseBillions(details.parameterSize) ?? billionsInName(model)
  const bits = stated.bits ?? parseBits(details.quantization) ?? bitsInName(model)
  return { ...(parameters === undefined ? {} : { parameters }), ...(bits === undefined ? {} : { bits }) }
}

/** Ollama's `7.6B` → 7.6, `494.03M` → 0.49403; undefined when unknown. */
export function parseBillions(size: string | number | undefined): number | undefined {
  if (typeof size === 'number') return size > 0 ? size : undefined
  const match = /^\s*([\d.]+)\s*([KMBT]?)\s*$/i.exec(size ?? '')
  if (!match) return undefined
  const scale: Record<string, number> = { K: 1e-6, M: 1e-3, B: 1, T: 1e3, '': 1e-9 }
  const billions = Number(match[1]) * (scale[(match[2] ?? '').toUpperCase()] ?? 1)
  return Number.isFinite(billions) && billions > 0 ? billions : undefined
}

/** Ollama's `Q4_K_M` → 4, `Q8_0` → 8, `F16`/`BF16` → 16, `MXFP4` → 4; undefined when unknown. */
export function parseBits(level: string | number | undefined): number | undefined {
  if (typeof level === 'number') return level > 0 ? level : undefined
  const match = /(?:Q|F|FP)(\d+)/i.exec(level ?? '')
  return match ? Number(match[1]) : undefined
}

/** `qwen2.5:7b`, `gemma4:31b-it-q8_0`, `Qwen3-Next-80B-A3B-Instruct` → 7, 31, 80 (the total of a mixture of experts). */
export function billionsInName(model: string): number | undefined {
  const match = /(?:^|[:\-_/ ])(\d+(?:\.\d+)?)b(?=$|[-_:. ])/i.exec(model)
  return match ? Number(match[1]) : undefined
}

/** `…q4_K_M`, `…q8_0`, `…-4bit`, `…-fp16` → 4, 8, 4, 16. */
export function bitsInName(model: string): number | undefined {
  const quant = /(?:^|[^a-z0-9])i?q(\d)(?:_[a-z0-9]+)*$/i.exec(model) ?? /(?:^|[^a-z0-9])i?q(\d)_/i.exec(model)
  if (quant) return Number(quant[1])
  const bit = /(?:^|[^a-z0-9])(\d+)-?bit(?:$|[^a-z0-9])/i.exec(model)
  if (bit) return Number(bit[1])
  const float = /(?:^|[^a-z0-9])(?:b?f|fp)(16|32)(?:$|[^a-z0-9])/i.exec(model)
  return float ? Number(float[1]) : undefined
}
