import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 3, count: 6 })
