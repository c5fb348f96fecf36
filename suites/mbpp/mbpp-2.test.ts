import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 2, count: 12 })
