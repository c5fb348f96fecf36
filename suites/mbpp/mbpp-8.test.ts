import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 8, count: 12 })
