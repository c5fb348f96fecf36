import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 6, count: 6 })
