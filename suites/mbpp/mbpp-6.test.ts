import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 6, count: 12 })
