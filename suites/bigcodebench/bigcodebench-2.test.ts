import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 2, count: 6 })
